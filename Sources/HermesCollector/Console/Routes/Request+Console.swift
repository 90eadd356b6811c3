import HermesWire
import Hummingbird

extension Request {
    /// The body as a JSON object, at most 1 MiB.
    /// - Throws: ``CollectorError/Code/invalidQuery`` when it is not a JSON object.
    func consoleJSON() async throws -> [String: JSONValue] {
        let bytes = try await bodyBytes(upTo: 1 << 20)
        guard let object = try? JSONValue(parsing: bytes).objectValue else {
            throw CollectorError(.invalidQuery, "the body must be a JSON object")
        }
        return object
    }
}

extension [String: JSONValue] {
    /// The string at `key`.
    /// - Throws: ``CollectorError/Code/invalidQuery`` naming the key when it is missing or not a string.
    func requiredString(_ key: String) throws(CollectorError) -> String {
        guard let value = self[key]?.stringValue else { throw CollectorError(.invalidQuery, "\(key) must be a string") }
        return value
    }
}
