/// Decodes upload bodies of either version: what the collector and `hermes decode` use.
///
/// Any input, however damaged, gives a packet or a ``HermesWireError``: the decoder checks
/// every length against the bytes it has before it reads, and bounds every decompression.
///
/// ```swift
/// let decoder = PacketDecoder(keyring: keyring)
/// let decoded = try decoder.decode(body, kind: .payload)
/// ```
public struct PacketDecoder: Sendable {
    /// The ciphers packets may be sealed with.
    public var keyring: Keyring
    /// The most bytes one block may decompress to.
    public var maximumBlockBytes: Int

    /// Creates a decoder.
    /// - Parameters:
    ///   - keyring: the ciphers packets may be sealed with; v1 uses the AES-128-CBC cipher with key id 0.
    ///   - maximumBlockBytes: the most bytes one block may decompress to (default 16 MiB).
    public init(keyring: Keyring, maximumBlockBytes: Int = 16 << 20) {
        self.keyring = keyring
        self.maximumBlockBytes = maximumBlockBytes
    }

    /// Whether `body` starts like a v2 packet; otherwise it is taken for v1.
    public static func version(of body: [UInt8]) -> UInt8 {
        body.starts(with: PacketV2.magic) ? PacketV2.version : 1
    }

    /// The limits of ``decode(_:kind:version:limits:)`` when none are given: each block within
    /// ``maximumBlockBytes``, as many records as the format can count.
    public var defaultLimits: PacketLimits {
        PacketLimits(blockBytes: maximumBlockBytes, packetBytes: .max, records: Int(UInt16.max))
    }

    /// Decodes an upload body.
    /// - Parameters:
    ///   - body: the request body.
    ///   - kind: the endpoint it arrived at; v1 needs it, v2 checks it. `nil` for v2 reads the kind from the header.
    ///   - version: the packet version from the request header, or `nil` to tell by the magic bytes.
    ///   - limits: how many records and decompressed bytes the packet may have (``defaultLimits`` when `nil`).
    /// - Returns: the packet with the version, cipher and key id it was sealed with.
    /// - Throws: ``HermesWireError`` naming what is wrong with the body, or the limit it passed
    ///   (``HermesWireError/Code/tooManyRecords``, ``HermesWireError/Code/packetTooLarge``,
    ///   ``HermesWireError/Code/outputTooLarge``).
    public func decode(
        _ body: [UInt8], kind: PacketKind?, version: UInt8? = nil, limits: PacketLimits? = nil
    ) throws(HermesWireError) -> DecodedPacket {
        let limits = limits ?? defaultLimits
        switch version ?? Self.version(of: body) {
        case 1:
            guard let kind else {
                throw HermesWireError(.inconsistentPacket, "a v1 packet does not say its kind: give the endpoint's kind")
            }
            guard let cipher = keyring.cipher(.aes128CBC, keyID: 0) else {
                throw HermesWireError(.unknownKey, "no v1 (AES-128-CBC) key is configured")
            }
            let packet = try PacketV1.decode(body, kind: kind, opener: BlockOpener(cipher: cipher, limits: limits))
            return DecodedPacket(version: 1, algorithm: .aes128CBC, keyID: 0, packet: packet)
        case PacketV2.version:
            return try PacketV2.decode(body, kind: kind, keyring: keyring, limits: limits)
        case let other:
            throw HermesWireError(.unsupportedVersion, "packet version \(other) is not supported; this build reads 1 and 2")
        }
    }
}

/// A decoded upload: the packet and how it was sealed.
public struct DecodedPacket: Sendable, Hashable {
    /// The packet version, 1 or 2.
    public var version: UInt8
    /// The cipher the blocks were sealed with.
    public var algorithm: CipherAlgorithm
    /// The key id (0 for v1).
    public var keyID: UInt32
    /// The records.
    public var packet: Packet

    /// Creates a decoded packet.
    public init(version: UInt8, algorithm: CipherAlgorithm, keyID: UInt32, packet: Packet) {
        self.version = version
        self.algorithm = algorithm
        self.keyID = keyID
        self.packet = packet
    }
}
