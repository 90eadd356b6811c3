import Foundation

/// A block of memory holding pending records serialized one after another, so that a record
/// waiting for the store costs `send` a copy into memory already touched, not heap allocations
/// that grow the process page by page (each new page a fault on the caller's thread).
///
/// Touched in full when made, reset and reused once its records are committed. Not
/// thread-safe: the ``PendingQueue`` that owns it is used under the writer's lock, and an
/// arena the writer took is no longer appended to.
final class RecordArena: @unchecked Sendable {
    // @unchecked: see above; the memory is owned and freed by this object.
    private let base: UnsafeMutableRawPointer
    let capacity: Int
    private var used = 0
    /// Records in the arena.
    private(set) var count = 0
    /// The payloads of the records that have one, in order (they stay the caller's `Data`).
    private var payloads: [Data] = []

    /// Allocates `capacity` bytes and touches every page of them.
    init(capacity: Int) {
        self.capacity = capacity
        base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        for page in stride(from: 0, to: capacity, by: 4_096) {
            base.storeBytes(of: 0, toByteOffset: page, as: UInt8.self)
        }
    }

    deinit {
        base.deallocate()
    }

    /// The bytes `record` takes in an arena.
    static func footprint(of record: PendingRecord) -> Int {
        Header.size + record.reportID.utf8.count + record.namespace.utf8.count + record.monitorType.utf8.count
            + record.appVersion.utf8.count + record.meta.count
    }

    /// Appends `record` if it fits.
    /// - Returns: `false` when the arena has no room for it.
    func append(_ record: PendingRecord) -> Bool {
        guard used + Self.footprint(of: record) <= capacity else { return false }
        Header(
            createdTime: record.createdTime, isBusiness: record.isBusiness, hasPayload: record.payload != nil,
            lengths: (record.reportID.utf8.count, record.namespace.utf8.count, record.monitorType.utf8.count,
                      record.appVersion.utf8.count, record.meta.count)
        ).write(to: base + used)
        var offset = used + Header.size
        func copy(_ bytes: UnsafeRawBufferPointer) {
            if let source = bytes.baseAddress { (base + offset).copyMemory(from: source, byteCount: bytes.count) }
            offset += bytes.count
        }
        func copy(_ string: String) {
            var string = string
            string.withUTF8 { copy(UnsafeRawBufferPointer($0)) }
        }
        copy(record.reportID)
        copy(record.namespace)
        copy(record.monitorType)
        copy(record.appVersion)
        record.meta.withUnsafeBytes { copy($0) }
        if let payload = record.payload { payloads.append(payload) }
        used = offset
        count += 1
        return true
    }

    /// The records, in the order they were appended.
    func records() -> [PendingRecord] {
        var records: [PendingRecord] = []
        records.reserveCapacity(count)
        var offset = 0
        var payloadIndex = 0
        while offset < used {
            let header = Header(reading: base + offset)
            offset += Header.size
            func take(_ length: Int) -> UnsafeRawBufferPointer {
                defer { offset += length }
                return UnsafeRawBufferPointer(start: base + offset, count: length)
            }
            func string(_ length: Int) -> String { String(decoding: take(length), as: UTF8.self) }
            let (reportID, namespace, monitorType, appVersion) = (
                string(header.lengths.0), string(header.lengths.1), string(header.lengths.2), string(header.lengths.3)
            )
            let meta = Array(take(header.lengths.4))
            var payload: Data?
            if header.hasPayload {
                payload = payloads[payloadIndex]
                payloadIndex += 1
            }
            records.append(PendingRecord(
                reportID: reportID, namespace: namespace, monitorType: monitorType, isBusiness: header.isBusiness,
                createdTime: header.createdTime, appVersion: appVersion, meta: meta, payload: payload
            ))
        }
        return records
    }

    /// Forgets every record, keeping the memory.
    func reset() {
        used = 0
        count = 0
        payloads.removeAll(keepingCapacity: true)
    }

    /// What precedes a record's bytes: its time, flags, and the lengths of its strings and meta.
    private struct Header {
        static let size = 8 + 2 + 5 * 4

        var createdTime: Int64
        var isBusiness: Bool
        var hasPayload: Bool
        /// Lengths of the report id, namespace, monitor type, app version and meta.
        var lengths: (Int, Int, Int, Int, Int)

        init(createdTime: Int64, isBusiness: Bool, hasPayload: Bool, lengths: (Int, Int, Int, Int, Int)) {
            self.createdTime = createdTime
            self.isBusiness = isBusiness
            self.hasPayload = hasPayload
            self.lengths = lengths
        }

        init(reading pointer: UnsafeRawPointer) {
            createdTime = pointer.loadUnaligned(as: Int64.self)
            isBusiness = pointer.loadUnaligned(fromByteOffset: 8, as: UInt8.self) != 0
            hasPayload = pointer.loadUnaligned(fromByteOffset: 9, as: UInt8.self) != 0
            func length(_ index: Int) -> Int { Int(pointer.loadUnaligned(fromByteOffset: 10 + 4 * index, as: UInt32.self)) }
            lengths = (length(0), length(1), length(2), length(3), length(4))
        }

        func write(to pointer: UnsafeMutableRawPointer) {
            pointer.storeBytes(of: createdTime, as: Int64.self)
            pointer.storeBytes(of: isBusiness ? 1 : 0, toByteOffset: 8, as: UInt8.self)
            pointer.storeBytes(of: hasPayload ? 1 : 0, toByteOffset: 9, as: UInt8.self)
            pointer.storeBytes(of: UInt32(lengths.0), toByteOffset: 10, as: UInt32.self)
            pointer.storeBytes(of: UInt32(lengths.1), toByteOffset: 14, as: UInt32.self)
            pointer.storeBytes(of: UInt32(lengths.2), toByteOffset: 18, as: UInt32.self)
            pointer.storeBytes(of: UInt32(lengths.3), toByteOffset: 22, as: UInt32.self)
            pointer.storeBytes(of: UInt32(lengths.4), toByteOffset: 26, as: UInt32.self)
        }
    }
}
