import Logging
import HermesWire

/// A `LogHandler` that keeps every message, for tests that check what was logged.
final class CapturedLogs: Sendable {
    struct Entry: Sendable, Equatable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
    }

    private let entries = Locked<[Entry]>([])

    /// A logger writing here.
    var logger: Logger {
        Logger(label: "hermes.tests") { _ in Handler(logs: self) }
    }

    /// Every message so far, in order.
    var all: [Entry] { entries.withLock { $0 } }

    fileprivate func append(_ entry: Entry) {
        entries.withLock { $0.append(entry) }
    }

    private struct Handler: LogHandler {
        let logs: CapturedLogs
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
            logs.append(Entry(level: event.level, message: "\(event.message)", metadata: merged.mapValues { "\($0)" }))
        }
    }
}
