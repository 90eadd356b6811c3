package import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What each `send` of a burst returned, one byte per record in a file mapped `MAP_SHARED`.
///
/// The burst child marks a record as soon as its `send` returned, with a plain one-byte store:
/// no system call, no lock, nothing that slows the burst. The page belongs to the kernel, so
/// the mark outlives a SIGKILL, and the parent reads afterwards exactly which records were
/// accepted. A record killed between its `send` returning and its mark reads as not returned:
/// the audit may then miss a loss, never invent one.
package final class SendMap {
    /// What a record's `send` returned.
    package enum Mark: UInt8, Equatable {
        /// Not returned yet when the child died (or never called).
        case notReturned = 0
        case accepted = 1
        case rejected = 2
    }

    /// Records the map holds.
    package let count: Int
    private let bytes: UnsafeMutablePointer<UInt8>

    /// Creates the file at `path` with `count` zero bytes, written rather than sparse (a full
    /// disk fails here, not with SIGBUS in the middle of the burst), maps it and touches
    /// every page, so that marking never takes a page fault.
    /// - Throws: ``RunFailure`` when the file cannot be written or mapped.
    package init(creatingAt path: String, count: Int) throws {
        precondition(count > 0, "a send map holds at least one record")
        let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw Self.failure("create", path) }
        defer { close(descriptor) }
        let zeros = [UInt8](repeating: 0, count: count)
        guard zeros.withUnsafeBytes({ pwrite(descriptor, $0.baseAddress, count, 0) }) == count else { throw Self.failure("write", path) }
        let mapped = mmap(nil, count, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0)
        guard let mapped, mapped != MAP_FAILED else { throw Self.failure("map", path) }
        self.count = count
        bytes = mapped.bindMemory(to: UInt8.self, capacity: count)
        for page in stride(from: 0, to: count, by: Int(getpagesize())) { bytes[page] = 0 }
    }

    deinit {
        munmap(bytes, count)
    }

    /// Marks record `index` (0-based within the burst).
    package func mark(_ index: Int, _ mark: Mark) {
        precondition((0..<count).contains(index), "record \(index) is outside the map")
        bytes[index] = mark.rawValue
    }

    /// The marks in the file at `path`, read after the child is gone (none if it does not
    /// exist; an unknown byte reads as ``Mark/notReturned``).
    package static func marks(at path: String) -> [Mark] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return data.map { Mark(rawValue: $0) ?? .notReturned }
    }

    /// The record numbers whose mark is `mark`, the first record being number `first`.
    package static func numbers(_ mark: Mark, in marks: [Mark], first: Int64) -> Set<Int64> {
        Set(marks.indices.lazy.filter { marks[$0] == mark }.map { first + Int64($0) })
    }

    private static func failure(_ action: String, _ path: String) -> RunFailure {
        RunFailure("cannot \(action) the send map \(path): \(String(cString: strerror(errno)))")
    }
}
