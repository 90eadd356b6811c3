/// The legacy v1 packet, kept exact for existing servers (specification §7).
///
/// Meta body: `AES-128-CBC(gzip(meta lines joined by \n))`.
/// Payload body: `u16 BE meta block length ‖ u8 payload count ‖ u32 BE length of each payload
/// block ‖ meta block ‖ payload blocks`, each payload block `AES-128-CBC(gzip(payload))`, an
/// empty slot a zero-length block.
enum PacketV1 {
    static let maximumMetaBlock = Int(UInt16.max)
    static let maximumPayloads = Int(UInt8.max)

    static func encode(_ packet: Packet, cipher: AESCBCCipher, level: Int32) throws(HermesWireError) -> [UInt8] {
        try packet.validate()
        let metaBlock = try SealedBlock.seal(packet.metaBlock, cipher: cipher, header: [], level: level)
        guard packet.kind == .payload else { return metaBlock }
        guard packet.payloads.count <= maximumPayloads else {
            throw HermesWireError(
                .tooManyPayloads, "v1 carries at most \(maximumPayloads) payloads, got \(packet.payloads.count); send smaller batches or use v2")
        }
        guard metaBlock.count <= maximumMetaBlock else {
            throw HermesWireError(
                .metaBlockTooLarge, "v1's sealed meta block must fit 65,535 bytes, got \(metaBlock.count); send smaller batches or use v2")
        }
        var blocks: [[UInt8]] = []
        for payload in packet.payloads {
            blocks.append(payload.isEmpty ? [] : try SealedBlock.seal(payload, cipher: cipher, header: [], level: level))
        }
        var body: [UInt8] = []
        body.reserveCapacity(3 + 4 * blocks.count + metaBlock.count + blocks.reduce(0) { $0 + $1.count })
        body.appendBigEndian(UInt16(metaBlock.count))
        body.append(UInt8(blocks.count))
        for block in blocks {
            guard let length = UInt32(exactly: block.count) else {
                throw HermesWireError(.inconsistentPacket, "a payload block exceeds 4 GiB")
            }
            body.appendBigEndian(length)
        }
        body += metaBlock
        for block in blocks { body += block }
        return body
    }

    static func decode(_ body: [UInt8], kind: PacketKind, opener: BlockOpener) throws(HermesWireError) -> Packet {
        var opener = opener
        guard kind == .payload else {
            let lines = try Packet.lines(ofMetaBlock: opener.open(body, header: []))
            try BlockOpener.check(records: lines.count, opener.limits)
            return Packet(kind: .meta, metaLines: lines)
        }
        var reader = ByteReader(body)
        let metaLength = Int(try reader.readInteger(UInt16.self, "meta block length"))
        let count = Int(try reader.readInteger(UInt8.self, "payload count"))
        try BlockOpener.check(records: count, opener.limits)
        let lengths = try reader.readBlockLengths(count: count, after: metaLength, format: "v1")
        let metaBlock = try reader.readBytes(metaLength, "meta block")
        let lines = try Packet.lines(ofMetaBlock: opener.open(metaBlock, header: []))
        guard lines.count == count else {
            throw HermesWireError(.payloadCountMismatch, "v1 header counts \(count) payloads for \(lines.count) meta lines")
        }
        var payloads: [[UInt8]] = []
        for (index, length) in lengths.enumerated() {
            let block = try reader.readBytes(length, "payload block \(index)")
            payloads.append(block.isEmpty ? [] : try opener.open(block, header: []))
        }
        return Packet(kind: .payload, metaLines: lines, payloads: payloads)
    }
}
