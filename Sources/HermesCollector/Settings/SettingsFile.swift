import Foundation
import HermesWire
import Yams

/// The `--settings` file: a JSON object, or a YAML mapping when its name ends in `.yaml` or
/// `.yml` (the same keys; YAML's scalars read as the core schema reads them: `8080` a number,
/// `true` a flag, anything else text).
enum SettingsFile {
    /// The file's settings by key.
    /// - Throws: ``SettingsError`` when the file cannot be read or is not an object of settings.
    static func read(_ path: String) throws -> [String: JSONValue] {
        let isYAML = [".yaml", ".yml"].contains { path.lowercased().hasSuffix($0) }
        guard let data = FileManager.default.contents(atPath: path),
            let object = isYAML ? yamlObject(String(decoding: data, as: UTF8.self)) : (try? JSONValue(parsing: Array(data)))?.objectValue
        else {
            throw SettingsError("--settings: cannot read \(path) as a \(isYAML ? "YAML mapping" : "JSON object") of settings.")
        }
        return object
    }

    /// A YAML document's top-level mapping as JSON values, or `nil` when it is not a mapping of
    /// plain values.
    static func yamlObject(_ text: String) -> [String: JSONValue]? {
        guard let mapping = (try? Yams.load(yaml: text)) as? [String: Any] else { return nil }
        var object: [String: JSONValue] = [:]
        for (key, value) in mapping {
            guard let value = json(value) else { return nil }
            object[key] = value
        }
        return object
    }

    private static func json(_ value: Any) -> JSONValue? {
        switch value {
        case let flag as Bool: return .bool(flag)
        case let number as Int: return .int(Int64(number))
        case let number as Double: return .double(number)
        case let text as String: return .string(text)
        case let items as [Any]:
            let values = items.compactMap(json)
            return values.count == items.count ? .array(values) : nil
        case is NSNull: return .null
        default: return nil
        }
    }
}
