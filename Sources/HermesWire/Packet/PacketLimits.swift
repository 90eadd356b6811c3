/// How much one upload packet may make a reader do: the bounds the collector decodes with, so
/// that a small hostile body cannot make it decompress or hold much more than an honest one.
///
/// Each bound is checked before the work it bounds: the record count from the header before any
/// block is opened, and the decompressed bytes as they are produced, so decompression stops at
/// the limit rather than after it.
///
/// ```swift
/// let limits = PacketLimits(namespace: configuration)   // what the SDK was told
/// let decoded = try decoder.decode(body, kind: .payload, limits: limits)
/// ```
public struct PacketLimits: Sendable, Hashable {
    /// The most bytes one block may decompress to.
    public var blockBytes: Int
    /// The most bytes all the blocks of one packet may decompress to together.
    public var packetBytes: Int
    /// The most records (meta lines, and so payload slots) one packet may carry.
    public var records: Int

    /// Creates limits.
    public init(blockBytes: Int, packetBytes: Int, records: Int) {
        self.blockBytes = blockBytes
        self.packetBytes = packetBytes
        self.records = records
    }

    /// Bytes allowed past a namespace's `maxBodyMByte` for what the packet adds to the stored
    /// records: a newline per meta line, and rounding.
    public static let framingAllowance = 16 << 10

    /// The limits a namespace's configuration implies, the same rules the SDK builds its batches
    /// by: at most `maxItem` records, and the records' stored bytes (meta plus payload) within
    /// `maxBodyMByte`, plus ``framingAllowance``. No block may exceed `blockBytes`.
    public init(namespace configuration: NamespaceConfiguration, blockBytes: Int = 16 << 20) {
        let packetBytes = configuration.maxBodyBytes + Self.framingAllowance
        self.init(blockBytes: min(blockBytes, packetBytes), packetBytes: packetBytes, records: configuration.maxItem)
    }
}
