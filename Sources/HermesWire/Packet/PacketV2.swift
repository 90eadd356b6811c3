/// Hermes' own v2 packet: self-describing, authenticated, with room for key rotation.
/// Byte by byte in `docs/wire-format.md`.
///
/// ```
/// offset size field
///      0    4 magic "HERM"
///      4    1 version = 2
///      5    1 kind: 1 meta, 2 payload
///      6    1 cipher: 2 AES-GCM, 3 HPKE
///      7    1 flags = 0 (reserved)
///      8    4 key id (u32 BE)
///     12    2 payload count n (u16 BE; 0 for meta)
///     14    4 meta block length (u32 BE)
///     18   4n payload block lengths (u32 BE each; 0 = no payload)
///          …  meta block, then payload blocks
/// ```
/// Each block is `cipher.seal(gzip(bytes))` authenticating the whole header followed by the
/// block's index as u16 BE (meta 0, payload i → i + 1), so no header byte can change and no
/// block can move without the collector noticing.
enum PacketV2 {
    static let magic: [UInt8] = Array("HERM".utf8)
    static let version: UInt8 = 2
    static let fixedHeaderLength = 18
    static let maximumPayloads = Int(UInt16.max)

    static func encode(_ packet: Packet, cipher: any PacketCipher, level: Int32) throws(HermesWireError) -> [UInt8] {
        guard cipher.algorithm.isAuthenticated else {
            throw HermesWireError(.unsupportedCipher, "v2 needs an authenticated cipher (AES-GCM or HPKE), not \(cipher.algorithm)")
        }
        try packet.validate()
        guard packet.payloads.count <= maximumPayloads else {
            throw HermesWireError(.tooManyPayloads, "v2 carries at most \(maximumPayloads) payloads, got \(packet.payloads.count)")
        }
        // Compress first: the header holds the sealed lengths, which depend only on the
        // compressed lengths, and every block authenticates the finished header.
        let compressedMeta = try Gzip.compress(packet.metaBlock, level: level)
        let compressedPayloads = try packet.payloads.map { payload throws(HermesWireError) in
            payload.isEmpty ? [] : try Gzip.compress(payload, level: level)
        }
        let overhead = sealOverhead(cipher.algorithm)
        var header: [UInt8] = magic
        header.reserveCapacity(fixedHeaderLength + 4 * compressedPayloads.count)
        header.append(version)
        header.append(packet.kind.rawValue)
        header.append(cipher.algorithm.rawValue)
        header.append(0)
        header.appendBigEndian(cipher.keyID)
        header.appendBigEndian(UInt16(compressedPayloads.count))
        try header.appendBigEndian(blockLength(compressedMeta.count + overhead))
        for payload in compressedPayloads {
            try header.appendBigEndian(payload.isEmpty ? 0 : blockLength(payload.count + overhead))
        }

        var body = header
        body += try cipher.seal(compressedMeta, authenticating: associatedData(header, block: 0))
        for (index, payload) in compressedPayloads.enumerated() where !payload.isEmpty {
            body += try cipher.seal(payload, authenticating: associatedData(header, block: index + 1))
        }
        return body
    }

    static func decode(_ body: [UInt8], kind: PacketKind?, keyring: Keyring, limits: PacketLimits) throws(HermesWireError) -> DecodedPacket {
        var reader = ByteReader(body)
        guard try reader.readBytes(4, "magic") == magic else {
            throw HermesWireError(.badMagic, "not a v2 packet: it does not start with \"HERM\"")
        }
        let version = try reader.readInteger(UInt8.self, "version")
        guard version == Self.version else {
            throw HermesWireError(.unsupportedVersion, "packet version \(version) is not supported; this build reads 1 and 2")
        }
        let kindByte = try reader.readInteger(UInt8.self, "kind")
        guard let packetKind = PacketKind(rawValue: kindByte) else {
            throw HermesWireError(.inconsistentPacket, "unknown packet kind \(kindByte)")
        }
        if let kind, kind != packetKind {
            throw HermesWireError(.inconsistentPacket, "a \(packetKind) packet was sent to the \(kind) endpoint")
        }
        let cipherByte = try reader.readInteger(UInt8.self, "cipher")
        guard let algorithm = CipherAlgorithm(rawValue: cipherByte), algorithm.isAuthenticated else {
            throw HermesWireError(.unsupportedCipher, "cipher id \(cipherByte) is not an authenticated cipher this build knows")
        }
        guard try reader.readInteger(UInt8.self, "flags") == 0 else {
            throw HermesWireError(.inconsistentPacket, "reserved flags are set")
        }
        let keyID = try reader.readInteger(UInt32.self, "key id")
        let count = Int(try reader.readInteger(UInt16.self, "payload count"))
        guard packetKind == .payload || count == 0 else {
            throw HermesWireError(.inconsistentPacket, "a meta packet declares \(count) payloads")
        }
        try BlockOpener.check(records: count, limits)
        let metaLength = Int(try reader.readInteger(UInt32.self, "meta block length"))
        let lengths = try reader.readBlockLengths(count: count, after: metaLength, format: "v2")
        let header = reader.consumed
        guard let cipher = keyring.cipher(algorithm, keyID: keyID) else {
            throw HermesWireError(.unknownKey, "no \(algorithm) key with id \(keyID) is configured")
        }

        var opener = BlockOpener(cipher: cipher, limits: limits)
        let metaBlock = try reader.readBytes(metaLength, "meta block")
        let meta = try opener.open(metaBlock, header: associatedData(header, block: 0))
        let lines = try Packet.lines(ofMetaBlock: meta)
        try BlockOpener.check(records: lines.count, limits)
        var payloads: [[UInt8]] = []
        for (index, length) in lengths.enumerated() {
            let block = try reader.readBytes(length, "payload block \(index)")
            payloads.append(
                block.isEmpty ? [] : try opener.open(block, header: associatedData(header, block: index + 1)))
        }
        guard packetKind == .meta || lines.count == count else {
            throw HermesWireError(.payloadCountMismatch, "v2 header counts \(count) payloads for \(lines.count) meta lines")
        }
        return DecodedPacket(
            version: version, algorithm: algorithm, keyID: keyID,
            packet: Packet(kind: packetKind, metaLines: lines, payloads: payloads)
        )
    }

    /// Bytes a cipher adds to each block: nonce or encapsulated key, and the tag.
    static func sealOverhead(_ algorithm: CipherAlgorithm) -> Int {
        switch algorithm {
        case .aesGCM: 12 + 16
        case .hpke: HPKECipher.encapsulatedKeyLength + 16
        case .aes128CBC: 0
        }
    }

    private static func blockLength(_ length: Int) throws(HermesWireError) -> UInt32 {
        guard let value = UInt32(exactly: length) else {
            throw HermesWireError(.inconsistentPacket, "a block exceeds 4 GiB")
        }
        return value
    }

    private static func associatedData(_ header: [UInt8], block: Int) -> [UInt8] {
        var data = header
        data.appendBigEndian(UInt16(truncatingIfNeeded: block))
        return data
    }
}
