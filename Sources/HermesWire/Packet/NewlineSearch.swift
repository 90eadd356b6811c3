#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension UnsafeBufferPointer<UInt8> {
    /// The index of the first newline (`0x0A`) at or after `start`, or `nil` when there is none:
    /// the C library's `memchr`, which reads many bytes at a time where a loop reads one.
    func firstNewline(from start: Int) -> Int? {
        guard start < count, let base = baseAddress, let found = memchr(base + start, 0x0A, count - start) else { return nil }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
    }
}
