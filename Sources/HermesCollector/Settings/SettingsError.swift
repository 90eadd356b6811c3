/// A collector setting that is missing, unknown or unreadable: what `collector serve` stops
/// with, the message naming the setting and its source, never a secret's value.
package struct SettingsError: Error, CustomStringConvertible {
    /// What is wrong and what is expected.
    package var message: String

    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }
}
