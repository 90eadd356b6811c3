/// A new key or token as `hermes keys generate` shows it: the collector's option with its value,
/// the file form of that value, and the SDK's line.
struct KeyMaterial {
    /// The comment line that says what it is.
    var title: String
    /// The collector option that takes ``fileEntry`` on the command line.
    var option: String
    /// The collector option that reads ``fileEntry`` from a file, when there is one.
    var fileOption: String?
    /// What the collector reads: `<key id>:<hex>` for a key, the token itself.
    var fileEntry: String
    /// The SDK's line.
    var sdk: String

    /// Everything, secrets included.
    var text: String {
        var lines = [title, "collector: \(option) \(fileEntry)"]
        if let fileOption { lines.append("           (or write \(fileEntry) to a file only the collector can read: \(fileOption) FILE)") }
        lines.append("SDK:       \(sdk)")
        return lines.joined(separator: "\n")
    }

    /// What to print once ``fileEntry`` is in `path`: the option that reads it, and the SDK line.
    func text(writtenTo path: String) -> String {
        [title, "collector: \(fileOption ?? option) \(path)", "SDK:       \(sdk)"].joined(separator: "\n")
    }
}
