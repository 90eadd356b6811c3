/// How a client encodes its uploads: the packet version and its cipher.
///
/// v2 is the default for new deployments; v1 exists for servers that read the legacy packet.
///
/// ```swift
/// let format = WireFormat.v2(try AESGCMCipher(key: key, keyID: 1))
/// let body = try format.encode(Packet(kind: .meta, metaLines: lines))
/// ```
public enum WireFormat: Sendable {
    /// The legacy packet, AES-128-CBC (specification §7 v1).
    case v1(AESCBCCipher)
    /// Hermes' authenticated packet with an AES-GCM or HPKE cipher (specification §7 v2).
    case v2(any PacketCipher)

    /// The packet version number, as sent in the `X-Hermes-Packet-Version` header.
    public var version: UInt8 {
        switch self {
        case .v1: 1
        case .v2: PacketV2.version
        }
    }

    /// Encodes a packet into an upload body.
    /// - Parameters:
    ///   - packet: the records to send.
    ///   - compressionLevel: the gzip level, 0 to 9.
    /// - Returns: the request body.
    /// - Throws: ``HermesWireError`` when the packet breaks the format's limits
    ///   (``HermesWireError/Code/metaBlockTooLarge``, ``HermesWireError/Code/tooManyPayloads``, …).
    public func encode(_ packet: Packet, compressionLevel: Int32 = Gzip.defaultLevel) throws(HermesWireError) -> [UInt8] {
        switch self {
        case .v1(let cipher): try PacketV1.encode(packet, cipher: cipher, level: compressionLevel)
        case .v2(let cipher): try PacketV2.encode(packet, cipher: cipher, level: compressionLevel)
        }
    }
}
