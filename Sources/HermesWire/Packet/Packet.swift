/// What an upload carries, before encoding and after decoding: a batch of records.
///
/// A meta packet carries meta lines only. A payload packet carries one payload slot per meta
/// line, in the same order; an empty slot means that record's payload is not sent.
///
/// ```swift
/// let packet = Packet(kind: .payload, metaLines: [crashMeta], payloads: [stackBytes])
/// let body = try WireFormat.v2(cipher).encode(packet)
/// ```
public struct Packet: Sendable, Hashable {
    /// Which upload endpoint the packet is for.
    public var kind: PacketKind
    /// One compact JSON object per record, without newlines.
    public var metaLines: [[UInt8]]
    /// For ``PacketKind/payload``: one slot per meta line (empty = none). For ``PacketKind/meta``: empty.
    public var payloads: [[UInt8]]

    /// Creates a packet.
    public init(kind: PacketKind, metaLines: [[UInt8]], payloads: [[UInt8]] = []) {
        self.kind = kind
        self.metaLines = metaLines
        self.payloads = payloads
    }

    /// The meta lines joined by `\n`: the meta block before compression.
    public var metaBlock: [UInt8] {
        var block: [UInt8] = []
        block.reserveCapacity(metaLines.reduce(metaLines.count) { $0 + $1.count })
        for (index, line) in metaLines.enumerated() {
            if index > 0 { block.append(0x0A) }
            block.append(contentsOf: line)
        }
        return block
    }

    /// Checks what every format requires of a packet before encoding it.
    func validate() throws(HermesWireError) {
        guard !metaLines.isEmpty else { throw HermesWireError(.emptyBatch, "a packet needs at least one record") }
        for (index, line) in metaLines.enumerated() where line.isEmpty || line.withUnsafeBufferPointer({ $0.firstNewline(from: 0) != nil }) {
            throw HermesWireError(.invalidMetaLine, "meta line \(index) is empty or contains a newline")
        }
        switch kind {
        case .meta:
            guard payloads.isEmpty else {
                throw HermesWireError(.payloadCountMismatch, "a meta packet carries no payloads; use a payload packet")
            }
        case .payload:
            guard payloads.count == metaLines.count else {
                throw HermesWireError(
                    .payloadCountMismatch,
                    "a payload packet needs one payload slot per meta line: \(metaLines.count) lines, \(payloads.count) payloads")
            }
        }
    }

    /// Splits a decompressed meta block back into lines.
    /// - Throws: ``HermesWireError/Code/invalidMetaLine`` for an empty block or an empty line
    ///   (two newlines in a row, or one at either end).
    static func lines(ofMetaBlock block: [UInt8]) throws(HermesWireError) -> [[UInt8]] {
        try block.withUnsafeBufferPointer { bytes throws(HermesWireError) in
            var lines: [[UInt8]] = []
            var start = 0
            while true {
                let end = bytes.firstNewline(from: start) ?? bytes.count
                guard end > start else { throw HermesWireError(.invalidMetaLine, "the meta block has an empty line") }
                lines.append(Array(UnsafeBufferPointer(rebasing: bytes[start..<end])))
                guard end < bytes.count else { return lines }
                start = end + 1
            }
        }
    }
}

/// Which upload endpoint a packet is for.
public enum PacketKind: UInt8, Sendable, CaseIterable {
    /// Meta lines only: `POST /v1/upload/meta`.
    case meta = 1
    /// Meta lines with their payloads: `POST /v1/upload/payload`.
    case payload = 2
}
