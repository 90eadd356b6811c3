package import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An append-only file of closed ranges of record numbers, `first-last` per line: what a
/// torture child accepted or confirmed. Each line goes out in one `write(2)` to a file opened
/// with `O_APPEND`, so a child killed at any instant leaves whole lines, or one line without
/// its newline, which ``read(_:)`` ignores.
package final class RangeLog {
    private let descriptor: Int32

    /// Opens (or creates) the file at `path` for appending.
    package init(path: String) throws {
        descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
    }

    deinit {
        close(descriptor)
    }

    /// Appends `range` as one line.
    package func append(_ range: ClosedRange<Int64>) throws {
        let line = Array("\(range.lowerBound)-\(range.upperBound)\n".utf8)
        let written = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == line.count else { throw CocoaError(.fileWriteUnknown) }
    }

    /// Every number in the complete lines of the file at `path` (none if it does not exist).
    package static func read(_ path: String) -> Set<Int64> {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        var numbers = Set<Int64>()
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            let bounds = line.split(separator: "-").compactMap { Int64($0) }
            guard bounds.count == 2, bounds[0] <= bounds[1] else { continue }
            numbers.formUnion(bounds[0]...bounds[1])
        }
        return numbers
    }
}
