#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why the journal could not make or open a segment.
struct JournalError: Error, CustomStringConvertible {
    let description: String

    /// A system call failed: `action` and the `errno` it set.
    static func system(_ action: String, _ code: Int32) -> JournalError {
        JournalError(description: "cannot \(action): \(String(cString: strerror(code)))")
    }
}
