import Foundation
import HermesWire
public import Logging

/// A swift-log handler writing one JSON object per line to standard error, for log collectors:
/// `{"time":"…Z","level":"info","label":"hermes.collector","message":"…", …metadata}`.
///
/// ```swift
/// LoggingSystem.bootstrap(JSONLogHandler.init)
/// ```
public struct JSONLogHandler: LogHandler {
    /// Metadata added to every entry.
    public var metadata: Logger.Metadata = [:]
    /// The lowest level written.
    public var logLevel: Logger.Level = .info
    private let label: String
    private let write: @Sendable ([UInt8]) -> Void

    /// Serialises writes so that lines from concurrent requests never interleave.
    private static let output = Locked(())

    /// A handler writing to standard error.
    public init(label: String) {
        self.init(label: label) { line in Self.output.withLock { _ in FileHandle.standardError.write(Data(line)) } }
    }

    /// A handler handing each line (with its newline) to `write`.
    public init(label: String, write: @escaping @Sendable ([UInt8]) -> Void) {
        self.label = label
        self.write = write
    }

    /// One metadata value added to every entry.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes `event` as one JSON line.
    public func log(event: LogEvent) {
        var fields: [String: JSONValue] = [:]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { _, new in new }) {
            fields[key] = .string("\(value)")
        }
        fields["time"] = .string(Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(Date()))
        fields["level"] = .string(event.level.rawValue)
        fields["label"] = .string(label)
        fields["message"] = .string("\(event.message)")
        guard var line = try? JSONValue.object(fields).jsonBytes() else { return }
        line.append(UInt8(ascii: "\n"))
        write(line)
    }
}
