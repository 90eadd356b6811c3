/// Opens the blocks of one packet within its ``PacketLimits``: each block within
/// ``PacketLimits/blockBytes`` and all of them together within ``PacketLimits/packetBytes``,
/// each decompression stopping at whichever bound is nearer.
struct BlockOpener {
    let cipher: any PacketCipher
    let limits: PacketLimits
    /// Decompressed bytes the packet may still produce.
    private(set) var remaining: Int

    init(cipher: any PacketCipher, limits: PacketLimits) {
        self.cipher = cipher
        self.limits = limits
        remaining = limits.packetBytes
    }

    /// Opens and decompresses one block.
    /// - Throws: ``HermesWireError/Code/outputTooLarge`` past the block limit,
    ///   ``HermesWireError/Code/packetTooLarge`` past what the packet has left, or what opening
    ///   the block throws.
    mutating func open(_ sealed: [UInt8], header: [UInt8]) throws(HermesWireError) -> [UInt8] {
        let packetBound = remaining < limits.blockBytes
        do {
            let opened = try SealedBlock.open(sealed, cipher: cipher, header: header, limit: min(limits.blockBytes, remaining))
            remaining -= opened.count
            return opened
        } catch  where error.code == .outputTooLarge && packetBound {
            throw HermesWireError(.packetTooLarge, "the packet's blocks decompress to more than \(limits.packetBytes) bytes")
        }
    }

    /// Checks a record count read from a header against ``PacketLimits/records``.
    static func check(records count: Int, _ limits: PacketLimits) throws(HermesWireError) {
        guard count <= limits.records else {
            throw HermesWireError(.tooManyRecords, "the packet carries \(count) records; at most \(limits.records) are accepted")
        }
    }
}
