/// The names of the members a parse builds out of an object (``JSONParser/parseMembers(_:named:)``),
/// kept with their UTF-8 bytes so that each member name of the input is matched where it lies,
/// without making a `String` of a name that is not kept.
struct JSONMemberNames: Sendable {
    /// The names, as given.
    let names: [String]
    /// Each name's UTF-8 bytes, in the order of ``names``.
    private let utf8: [[UInt8]]

    init(_ names: [String]) {
        self.names = names
        utf8 = names.map { Array($0.utf8) }
    }

    /// The place in ``names`` of the name whose bytes are `run`, a member name of the input read
    /// without escapes.
    /// - Parameter run: bytes of ASCII text: for ASCII, equal bytes and equal strings are the same.
    func index(matching run: UnsafeBufferPointer<UInt8>) -> Int? {
        utf8.indices.first { utf8[$0].count == run.count && utf8[$0].elementsEqual(run) }
    }

    /// The place in ``names`` of `key` (a member name read with escapes or non-ASCII text).
    func index(equalTo key: String) -> Int? {
        names.firstIndex(of: key)
    }
}
