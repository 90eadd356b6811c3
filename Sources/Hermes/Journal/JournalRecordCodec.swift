import Foundation

/// A record's bytes in a journal frame: a fixed header (time, flags, six lengths) followed by
/// the report id, namespace, monitor type, app version, meta and payload. Integers are
/// little-endian (docs/journal.md).
enum JournalRecordCodec {
    /// Bytes of the fixed header: created time (8), flags (1), padding (3), six u32 lengths.
    static let headerSize = 8 + 4 + 6 * 4

    private static let businessFlag: UInt8 = 1
    private static let payloadFlag: UInt8 = 2

    /// The encoded size of `record`.
    static func size(of record: PendingRecord) -> Int {
        headerSize + record.reportID.utf8.count + record.namespace.utf8.count + record.monitorType.utf8.count
            + record.appVersion.utf8.count + record.meta.count + (record.payload?.count ?? 0)
    }

    /// Writes `record` at `pointer`, which has room for ``size(of:)`` bytes.
    static func encode(_ record: PendingRecord, to pointer: UnsafeMutableRawPointer) {
        let payloadLength = record.payload?.count ?? 0
        pointer.storeBytes(of: record.createdTime.littleEndian, as: Int64.self)
        var flags: UInt8 = record.isBusiness ? businessFlag : 0
        if record.payload != nil { flags |= payloadFlag }
        pointer.storeBytes(of: flags, toByteOffset: 8, as: UInt8.self)
        func length(_ index: Int, _ value: Int) {
            pointer.storeBytes(of: UInt32(value).littleEndian, toByteOffset: 12 + 4 * index, as: UInt32.self)
        }
        length(0, record.reportID.utf8.count)
        length(1, record.namespace.utf8.count)
        length(2, record.monitorType.utf8.count)
        length(3, record.appVersion.utf8.count)
        length(4, record.meta.count)
        length(5, payloadLength)
        // Each copy says how many bytes it wrote: no closure captures where the next one goes
        // (a captured variable was checked for exclusive access at run time on every use).
        var next = pointer + headerSize
        next += copy(record.reportID, to: next)
        next += copy(record.namespace, to: next)
        next += copy(record.monitorType, to: next)
        next += copy(record.appVersion, to: next)
        next += record.meta.withUnsafeBytes { [next] in copy($0, to: next) }
        if let payload = record.payload { _ = payload.withUnsafeBytes { [next] in copy($0, to: next) } }
    }

    /// Copies `bytes` to `destination`.
    /// - Returns: how many bytes were copied.
    private static func copy(_ bytes: UnsafeRawBufferPointer, to destination: UnsafeMutableRawPointer) -> Int {
        if let source = bytes.baseAddress { destination.copyMemory(from: source, byteCount: bytes.count) }
        return bytes.count
    }

    /// Copies `string`'s UTF-8 to `destination`: a native string's bytes are read where they
    /// are; any other's are copied once.
    /// - Returns: how many bytes were copied.
    private static func copy(_ string: String, to destination: UnsafeMutableRawPointer) -> Int {
        if let count = string.utf8.withContiguousStorageIfAvailable({ copy(UnsafeRawBufferPointer($0), to: destination) }) { return count }
        return Array(string.utf8).withUnsafeBytes { copy($0, to: destination) }
    }

    /// Reads a record written by ``encode(_:to:)``.
    /// - Returns: `nil` when the lengths do not add up to `bytes.count` (a damaged frame).
    static func decode(_ bytes: UnsafeRawBufferPointer) -> PendingRecord? {
        guard bytes.count >= headerSize, let base = bytes.baseAddress else { return nil }
        let createdTime = Int64(littleEndian: base.loadUnaligned(as: Int64.self))
        let flags = base.loadUnaligned(fromByteOffset: 8, as: UInt8.self)
        func length(_ index: Int) -> Int {
            Int(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: 12 + 4 * index, as: UInt32.self)))
        }
        guard headerSize + (0..<6).reduce(0, { $0 + length($1) }) == bytes.count else { return nil }
        var offset = headerSize
        func take(_ length: Int) -> UnsafeRawBufferPointer {
            defer { offset += length }
            return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length])
        }
        func string(_ length: Int) -> String { String(decoding: take(length), as: UTF8.self) }
        let reportID = string(length(0))
        let namespace = string(length(1))
        let monitorType = string(length(2))
        let appVersion = string(length(3))
        let meta = Array(take(length(4)))
        let payload = flags & payloadFlag != 0 ? Data(take(length(5))) : nil
        return PendingRecord(
            reportID: reportID, namespace: namespace, monitorType: monitorType, isBusiness: flags & businessFlag != 0,
            createdTime: createdTime, appVersion: appVersion, meta: meta, payload: payload
        )
    }
}
