#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The names of the members a parse builds out of an object (``JSONParser/parseMembers(_:named:)``),
/// kept with their UTF-8 bytes so that each member name of the input is matched where it lies,
/// without making a `String` of a name that is not kept.
struct JSONMemberNames: Sendable {
    /// Where one name's bytes lie in ``utf8``, with their count and first byte: what most names
    /// of the input are told apart by before any byte is compared.
    private struct Entry: Sendable {
        var start: Int
        var count: Int
        var first: UInt8
    }

    /// The names, as given.
    let names: [String]
    /// The names' UTF-8 bytes, back to back, in the order of ``names``.
    private let utf8: [UInt8]
    /// Each name's place in ``utf8``, in the order of ``names``.
    private let entries: [Entry]

    init(_ names: [String]) {
        self.names = names
        var utf8: [UInt8] = []
        var entries: [Entry] = []
        for name in names {
            entries.append(Entry(start: utf8.count, count: name.utf8.count, first: name.utf8.first ?? 0))
            utf8 += name.utf8
        }
        self.utf8 = utf8
        self.entries = entries
    }

    /// The place in ``names`` of the name whose bytes are `run`, a member name of the input read
    /// without escapes.
    /// - Parameter run: bytes of ASCII text: for ASCII, equal bytes and equal strings are the same.
    func index(matching run: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let runStart = run.baseAddress, !run.isEmpty else { return entries.firstIndex { $0.count == 0 } }
        let first = runStart.pointee
        // The C library's `memcmp` compares many bytes at a time; most names differ in count or
        // first byte and are passed over without it.
        return utf8.withUnsafeBufferPointer { utf8 in
            entries.withUnsafeBufferPointer { entries in
                entries.indices.first { index in
                    let entry = entries[index]
                    return entry.count == run.count && entry.first == first && memcmp(utf8.baseAddress! + entry.start, runStart, run.count) == 0
                }
            }
        }
    }

    /// The place in ``names`` of `key` (a member name read with escapes or non-ASCII text).
    func index(equalTo key: String) -> Int? {
        names.firstIndex(of: key)
    }
}
