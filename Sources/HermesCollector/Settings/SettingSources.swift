import Foundation
import HermesWire

/// Where `collector serve` settings come from besides its flags, read strictly: a
/// `HERMES_<OPTION>` environment variable (`--retention-days`: `HERMES_RETENTION_DAYS`; lists
/// comma-separated), then a file of the `--secrets-dir` directory named for the option
/// (`admin-token`, or its variable's name, `HERMES_ADMIN_TOKEN`: one value a file, as container
/// platforms mount secrets), then a key of the `--settings` JSON file (the option's name in
/// camelCase: `retentionDays`). A file key or a secrets file that names no option, or a value
/// that cannot be read as its option's kind, from any source, stops the start with the key, the
/// source and what is expected. A `HERMES_` variable that names no option is reported too, as a
/// warning: the prefix is shared with other tools. The settings file may be YAML (``SettingsFile``).
package struct SettingSources {
    /// What a setting's value holds.
    package enum Kind {
        case text, wholeNumber, flag, list
    }

    /// A setting: its option's long name, what it holds, and whether its value is a secret
    /// (never shown in a message or a summary).
    package struct Setting {
        package var option: String
        package var kind: Kind
        package var isSecret = false
        /// Older spellings still read: file keys and environment names.
        package var aliases: [String] = []

        /// The settings file's key: the option's name in camelCase.
        package var fileKey: String {
            let words = option.split(separator: "-")
            return words.enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.prefix(1).uppercased() + $0.element.dropFirst() }
                .joined()
        }

        /// The environment variable: `HERMES_` and the option's name in capitals.
        package var environmentName: String { "HERMES_" + option.uppercased().replacingOccurrences(of: "-", with: "_") }
    }

    /// Every setting `collector serve` reads from the environment and the settings file.
    package static let settings: [Setting] = [
        Setting(option: "host", kind: .text), Setting(option: "port", kind: .wholeNumber),
        Setting(option: "storage", kind: .text, isSecret: true),
        Setting(option: "app-key", kind: .list, isSecret: true, aliases: ["appKeys", "HERMES_APP_KEYS"]),
        Setting(option: "app-key-file", kind: .text), Setting(option: "admin-token", kind: .text, isSecret: true),
        Setting(option: "admin-token-file", kind: .text), Setting(option: "config", kind: .text),
        Setting(option: "token", kind: .list, isSecret: true), Setting(option: "token-file", kind: .list),
        Setting(option: "max-body-bytes", kind: .wholeNumber), Setting(option: "max-connections-per-address", kind: .wholeNumber),
        Setting(option: "max-bytes-in-flight", kind: .wholeNumber), Setting(option: "retention-days", kind: .wholeNumber),
        Setting(option: "app-key-rate", kind: .wholeNumber),
        Setting(option: "tls-cert-file", kind: .text), Setting(option: "tls-key-file", kind: .text),
        Setting(option: "sync-schema", kind: .text), Setting(option: "sync-history-days", kind: .wholeNumber),
        Setting(option: "sync-require-credentials", kind: .flag),
        Setting(option: "log-level", kind: .text), Setting(option: "log-json", kind: .flag, aliases: ["logJson"]),
        Setting(option: "v1-key", kind: .text, isSecret: true), Setting(option: "v1-iv", kind: .text, isSecret: true),
        Setting(option: "aes-key", kind: .list, isSecret: true), Setting(option: "hpke-private-key", kind: .list, isSecret: true),
        Setting(option: "aes-key-file", kind: .list), Setting(option: "hpke-private-key-file", kind: .list),
    ]

    /// The variable that names the secrets directory when `--secrets-dir` is not given.
    package static let secretsDirectoryVariable = "HERMES_SECRETS_DIR"

    private let environment: [String: String]
    private let file: [String: JSONValue]
    private let filePath: String?
    /// The secrets directory's values by option, and the directory.
    private let secrets: [String: String]
    private let secretsPath: String?
    /// `HERMES_` variables that name no setting.
    package let unknownEnvironmentNames: [String]

    /// Reads the settings file at `path` (if any) and checks its keys, reads the secrets directory
    /// (if any) and checks its files' names, and notes the environment's unknown `HERMES_` variables.
    /// - Throws: ``SettingsError`` when the file cannot be read, is not an object, or has keys
    ///   that name no option (all of them, at once); when the directory cannot be listed, or holds
    ///   files that name no option (all of them) or that cannot be read.
    package init(environment: [String: String], settingsFile path: String?, secretsDirectory: String? = nil) throws {
        self.environment = environment
        secretsPath = secretsDirectory
        secrets = try secretsDirectory.map(Self.readSecrets) ?? [:]
        filePath = path
        if let path {
            let object = try SettingsFile.read(path)
            let known = Set(Self.settings.flatMap { [$0.fileKey] + $0.aliases })
            let unknown = object.keys.filter { !known.contains($0) }.sorted()
            guard unknown.isEmpty else {
                throw SettingsError(
                    "--settings \(path): unknown \(unknown.count == 1 ? "key" : "keys") \(unknown.map { "\"\($0)\"" }.joined(separator: ", ")); "
                        + "the keys are the options' names in camelCase (\"storage\", \"retentionDays\", \"appKey\", …).")
            }
            file = object
        } else {
            file = [:]
        }
        let names = Set(Self.settings.flatMap { [$0.environmentName] + $0.aliases } + [Self.secretsDirectoryVariable])
        unknownEnvironmentNames = environment.keys.filter { $0.hasPrefix("HERMES_") && !names.contains($0) }.sorted()
    }

    /// The setting named by its option.
    package static func setting(_ option: String) -> Setting {
        guard let setting = settings.first(where: { $0.option == option }) else { preconditionFailure("no setting --\(option)") }
        return setting
    }

    /// The text of `option` from the environment or the file, or `nil` when neither sets it.
    package func text(_ option: String) throws -> String? {
        try value(option).map { value, source in
            guard let text = value.stringValue else { throw Self.unreadable(option, source, value, "text") }
            return text
        }
    }

    /// The whole number of `option` from the environment or the file.
    package func wholeNumber(_ option: String) throws -> Int? {
        try value(option).map { value, source in
            if let number = value.intValue.flatMap({ Int(exactly: $0) }) { return number }
            if let text = value.stringValue, let number = Int(text.trimmingCharacters(in: .whitespaces)) { return number }
            throw Self.unreadable(option, source, value, "a whole number")
        }
    }

    /// The flag `option` from the environment or the file (`true`/`false`, `1`/`0`).
    package func flag(_ option: String) throws -> Bool? {
        try value(option).map { value, source in
            if let flag = value.boolValue { return flag }
            switch value.stringValue?.lowercased() {
            case "true", "1", "yes": return true
            case "false", "0", "no": return false
            default: throw Self.unreadable(option, source, value, "true or false")
            }
        }
    }

    /// The list `option` from the environment (comma-separated) or the file (an array of
    /// strings, or one comma-separated string); empty when neither sets it.
    package func list(_ option: String) throws -> [String] {
        guard let (value, source) = try value(option) else { return [] }
        if let text = value.stringValue {
            return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        if case .array(let items) = value {
            let texts = items.compactMap(\.stringValue)
            if texts.count == items.count { return texts }
        }
        throw Self.unreadable(option, source, value, "a list of strings")
    }

    /// Where each setting is set, for the summary: `option` → `environment`, `settings file`.
    package func source(_ option: String) -> String? {
        (try? value(option))??.source
    }

    /// The raw value and its source, the environment first.
    private func value(_ option: String) throws -> (value: JSONValue, source: String)? {
        let setting = Self.setting(option)
        for name in [setting.environmentName] + setting.aliases where name.hasPrefix("HERMES_") {
            if let text = environment[name] { return (.string(text), "environment variable \(name)") }
        }
        if let text = secrets[option] { return (.string(text), "secrets directory \(secretsPath ?? "") file for --\(option)") }
        for key in [setting.fileKey] + setting.aliases where !key.hasPrefix("HERMES_") {
            if let value = file[key] { return (value, "settings file \(filePath ?? "") key \"\(key)\"") }
        }
        return nil
    }

    /// Each visible regular file of `directory` as the value of the option it names (by the
    /// option's name or its variable's); hidden entries (a mount's `..data`) and directories are
    /// skipped.
    private static func readSecrets(_ directory: String) throws -> [String: String] {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: directory) else {
            throw SettingsError("--secrets-dir: cannot list \(directory).")
        }
        var options: [String: Setting] = [:]
        for setting in settings {
            options[setting.option] = setting
            options[setting.environmentName] = setting
        }
        var values: [String: String] = [:]
        var unknown: [String] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            var isDirectory: ObjCBool = false
            let path = (directory as NSString).appendingPathComponent(name)
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            guard let setting = options[name] else {
                unknown.append(name)
                continue
            }
            let text = try SecretFile.read(path, for: "--secrets-dir")
            values[setting.option] = setting.kind == .list ? text.split(whereSeparator: \.isNewline).joined(separator: ",") : text
        }
        guard unknown.isEmpty else {
            throw SettingsError(
                "--secrets-dir \(directory): \(unknown.count == 1 ? "a file names" : "files name") no option: \(unknown.joined(separator: ", ")); "
                    + "name each file for its option (admin-token) or its variable (HERMES_ADMIN_TOKEN).")
        }
        return values
    }

    private static func unreadable(_ option: String, _ source: String, _ value: JSONValue, _ expected: String) -> SettingsError {
        let shown = setting(option).isSecret ? "" : ", not \((try? value.jsonString()) ?? "this value")"
        return SettingsError("\(source): --\(option) must be \(expected)\(shown).")
    }
}
