/// A binary loaded in the crashed process: where it was mapped and the file it came from.
/// Written at install time (`image <start> <end> <bias> <path>`), read at the next start.
struct CrashImage: Sendable, Equatable {
    /// The lowest and highest address of its loaded segments.
    var start: UInt64
    var end: UInt64
    /// What the loader added to the file's virtual addresses (0 for a fixed-address executable).
    var bias: UInt64
    var path: String

    /// The images listed in `text`, one `image` line each; other lines are skipped.
    static func parse(_ text: String) -> [CrashImage] {
        text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 4)
            guard parts.count == 5, parts[0] == "image",
                let start = CrashReport.number(parts[1]), let end = CrashReport.number(parts[2]),
                let bias = CrashReport.number(parts[3])
            else { return nil }
            return CrashImage(start: start, end: end, bias: bias, path: String(parts[4]))
        }
    }

    /// The file's name without its folder.
    var name: String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
