import HermesWire
import Logging

/// One buffered log entry: what `log(event:)` captured, converted to a record meta only when
/// it is saved, off the caller's thread.
struct LogEntry: Sendable {
    /// The event, its metadata already merged (handler, provider, call site).
    var event: LogEvent
    var label: String
    /// Milliseconds since 1970 on the client's wall clock, when the entry was logged.
    var timestamp: Int64

    /// The record's meta: `message`, `label`, `source`, `file`, `function`, `line`,
    /// `metadata` (flattened to JSON), `timestamp`, and `error` when the event carries one.
    var meta: [String: JSONValue] {
        var meta: [String: JSONValue] = [
            "message": .string(event.message.description),
            "label": .string(label),
            "source": .string(event.source),
            "file": .string(event.file),
            "function": .string(event.function),
            "line": .int(Int64(event.line)),
            "metadata": .object((event.metadata ?? [:]).mapValues(Self.json)),
            "timestamp": .int(timestamp),
        ]
        if let error = event.error { meta["error"] = .string(String(describing: error)) }
        return meta
    }

    /// A metadata value as JSON: strings stay strings, other values become their description,
    /// dictionaries and arrays become objects and arrays.
    static func json(_ value: Logger.MetadataValue) -> JSONValue {
        switch value {
        case .string(let string): .string(string)
        case .stringConvertible(let convertible): .string(convertible.description)
        case .dictionary(let dictionary): .object(dictionary.mapValues(json))
        case .array(let array): .array(array.map(json))
        }
    }
}
