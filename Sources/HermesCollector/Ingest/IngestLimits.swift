import HermesWire

/// What one upload may hold, from its namespace's configuration, so that the collector enforces
/// what the SDK is told: at most `maxItem` records whose stored bytes fit `maxBodyMByte`
/// (``PacketLimits``), each meta line within `maxMetaKByte`. A namespace the collector does not
/// configure gets the widest limits any configuration could give.
struct IngestLimits: Sendable, Hashable {
    /// The packet's records and decompressed bytes.
    var packet: PacketLimits
    /// The longest meta line stored; a longer one is rejected alone (`metaTooLarge`).
    var metaLineBytes: Int

    init(namespace configuration: NamespaceConfiguration?, maxBlockBytes: Int) {
        let configuration = configuration ?? .widest
        packet = PacketLimits(namespace: configuration, blockBytes: maxBlockBytes)
        metaLineBytes = configuration.maxMetaBytes
    }
}
