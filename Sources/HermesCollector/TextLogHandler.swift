public import Logging

/// swift-log's `StreamLogHandler` writing to standard error, with its metadata formatted when an
/// entry is written instead of each time a value is set: Hummingbird sets a request id on the
/// logger of every request, and the stream handler formats all of its metadata again at each
/// set (1.2 % of a collector's CPU in `hermes bench collector`), though most requests log nothing.
///
/// ```swift
/// LoggingSystem.bootstrap(TextLogHandler.init)
/// ```
public struct TextLogHandler: LogHandler {
    /// Metadata added to every entry.
    public var metadata: Logger.Metadata = [:]
    /// The lowest level written.
    public var logLevel: Logger.Level = .info
    private let label: String

    /// A handler writing to standard error.
    public init(label: String) {
        self.label = label
    }

    /// One metadata value added to every entry.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes `event` as `StreamLogHandler` does.
    public func log(event: LogEvent) {
        var stream = StreamLogHandler.standardError(label: label)
        stream.logLevel = logLevel
        stream.metadata = metadata
        stream.log(event: event)
    }
}
