import Foundation

/// Secrets read from files, so that they never show in `ps` or a shell's history.
package enum SecretFile {
    /// The file's text without surrounding whitespace.
    /// - Throws: ``SettingsError`` naming the option (never the contents) when the file cannot
    ///   be read or holds nothing.
    package static func read(_ path: String, for option: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SettingsError("\(option): cannot read \(path).")
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw SettingsError("\(option): \(path) is empty.") }
        return text
    }

    /// The file's non-empty lines, trimmed.
    package static func lines(_ path: String, for option: String) throws -> [String] {
        try read(path, for: option).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
