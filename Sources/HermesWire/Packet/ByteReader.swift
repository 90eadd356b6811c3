/// Reads big-endian integers and byte runs from a packet, checking every length against what
/// is left before it reads or allocates, so no input can make it trap or over-allocate.
struct ByteReader {
    private let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var remaining: Int { bytes.count - offset }

    mutating func readInteger<T: FixedWidthInteger & UnsignedInteger>(_: T.Type, _ field: String) throws(HermesWireError) -> T {
        let size = MemoryLayout<T>.size
        guard remaining >= size else { throw truncated(field) }
        var value: T = 0
        for byte in bytes[offset..<offset + size] {
            value = value << 8 | T(byte)
        }
        offset += size
        return value
    }

    mutating func readBytes(_ count: Int, _ field: String) throws(HermesWireError) -> [UInt8] {
        guard count >= 0, remaining >= count else { throw truncated(field) }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// Reads `count` u32 payload block lengths and checks that a meta block of `metaLength`
    /// bytes and those blocks are exactly the rest of the packet.
    mutating func readBlockLengths(count: Int, after metaLength: Int, format: String) throws(HermesWireError) -> [Int] {
        var lengths: [Int] = []
        for index in 0..<count {
            lengths.append(Int(try readInteger(UInt32.self, "length of payload \(index)")))
        }
        let declared = lengths.reduce(metaLength, +)
        guard declared == remaining else {
            throw HermesWireError(
                declared > remaining ? .truncatedPacket : .inconsistentPacket,
                "\(format) header declares \(declared) bytes of blocks, the packet has \(remaining)"
            )
        }
        return lengths
    }

    /// The bytes read so far (a header, for authentication).
    var consumed: [UInt8] { Array(bytes[..<offset]) }

    private func truncated(_ field: String) -> HermesWireError {
        HermesWireError(.truncatedPacket, "packet ends inside the \(field) at byte \(offset) of \(bytes.count)")
    }
}

extension Array where Element == UInt8 {
    /// Appends `value` in big-endian (network) byte order.
    mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }
}
