import Atomics
import CHermesJournal
import Foundation
import HermesWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One journal file, mapped into memory (`MAP_SHARED`) for its whole life, so the bytes a
/// caller copies in belong to the kernel's page cache at once and outlive the process.
///
/// Layout (docs/journal.md): a 32-byte file header, then frames. A frame is a 16-byte header
/// (body length, CRC-32C of the body, commit word, zero) and the body, padded to 8 bytes. The
/// length is written when the frame is reserved, the commit word last with release ordering,
/// so a reader after a crash can step over a torn frame and never reads one as complete.
final class JournalSegment: @unchecked Sendable {
    // @unchecked: a frame is written only by the caller that reserved it, and read only after
    // its commit word is published (acquire/release); `writers` is atomic; the rest is immutable.

    static let fileExtension = "journal"
    static let fileHeaderSize = 32
    static let frameHeaderSize = 16
    static let magic: UInt32 = 0x4C4E_4A48  // "HJNL"
    static let formatVersion: UInt32 = 1
    /// The commit word of a complete frame.
    static let committed: UInt32 = 0x4B4F_4D48  // "HMOK"

    let sequence: UInt64
    /// Drawn at random when the segment is made: the store saves its cursor under it, so a
    /// cursor saved for a deleted segment never applies to a later one with the same number.
    let identity: Int64
    let url: URL
    /// The file's size, header included.
    let capacity: Int
    private let base: UnsafeMutableRawPointer
    /// Callers copying a record into this segment right now.
    let writers = ManagedAtomic<Int>(0)

    private init(sequence: UInt64, identity: Int64, url: URL, capacity: Int, base: UnsafeMutableRawPointer) {
        self.sequence = sequence
        self.identity = identity
        self.url = url
        self.capacity = capacity
        self.base = base
    }

    deinit {
        munmap(base, capacity)
    }

    /// The bytes a frame with a body of `bodyLength` bytes takes.
    static func frameSize(body bodyLength: Int) -> Int {
        (frameHeaderSize + bodyLength + 7) & ~7
    }

    /// The file name of segment `sequence`: its number in hexadecimal, so names sort in order.
    static func fileName(_ sequence: UInt64) -> String {
        let digits = String(sequence, radix: 16)
        return String(repeating: "0", count: max(0, 16 - digits.count)) + digits + "." + fileExtension
    }

    /// The sequence number in a segment's file name, or `nil` for another file.
    static func sequence(ofFileNamed name: String) -> UInt64? {
        guard name.hasSuffix("." + fileExtension) else { return nil }
        return UInt64(name.dropLast(fileExtension.count + 1), radix: 16)
    }

    // MARK: - Making and opening

    /// Creates a segment ready to be filled: the file written with zeros (so a full disk fails
    /// here with `ENOSPC`, never later as `SIGBUS` in a caller's copy), mapped, and every page
    /// touched (so a caller's copy takes no page fault).
    /// - Throws: ``JournalError`` when the file cannot be created, sized or mapped.
    static func create(sequence: UInt64, in directory: URL, capacity: Int) throws -> JournalSegment {
        let url = directory.appendingPathComponent(fileName(sequence))
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw JournalError.system("create \(url.lastPathComponent)", errno) }
        defer { close(descriptor) }
        do {
            try writeZeros(descriptor, count: capacity)
            let base = try map(descriptor, capacity: capacity)
            for page in stride(from: 0, to: capacity, by: 4_096) {
                base.storeBytes(of: 0, toByteOffset: page, as: UInt8.self)
            }
            base.storeBytes(of: magic.littleEndian, as: UInt32.self)
            base.storeBytes(of: formatVersion.littleEndian, toByteOffset: 4, as: UInt32.self)
            base.storeBytes(of: sequence.littleEndian, toByteOffset: 8, as: UInt64.self)
            base.storeBytes(of: UInt64(capacity).littleEndian, toByteOffset: 16, as: UInt64.self)
            let identity = Int64.random(in: .min ... .max)
            base.storeBytes(of: identity.littleEndian, toByteOffset: 24, as: Int64.self)
            return JournalSegment(sequence: sequence, identity: identity, url: url, capacity: capacity, base: base)
        } catch {
            unlink(url.path)
            throw error
        }
    }

    /// What ``reopen(_:)`` found in a file an earlier run left.
    enum Reopened {
        /// A segment, mapped to read what it holds.
        case segment(JournalSegment)
        /// A segment whose creation never finished: too short to hold a frame, or nothing but
        /// zeros (``create(sequence:in:capacity:)`` writes the header last). It holds no record.
        case unfinished
        /// A file whose header does not check out although bytes were written to it: mapped,
        /// so that the frames that still verify can be read (``verifiedFrames()``).
        case damaged(JournalSegment)
    }

    /// Maps a segment left by an earlier run, to read what it holds.
    /// - Throws: ``JournalError`` when the file is not named as a segment or cannot be opened or mapped.
    static func reopen(_ url: URL) throws -> Reopened {
        guard let sequence = sequence(ofFileNamed: url.lastPathComponent) else {
            throw JournalError(description: "\(url.lastPathComponent) is not named as a segment")
        }
        let descriptor = open(url.path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { throw JournalError.system("open \(url.lastPathComponent)", errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw JournalError.system("stat \(url.lastPathComponent)", errno) }
        let size = Int(status.st_size)
        guard size >= fileHeaderSize + frameHeaderSize else { return .unfinished }
        let base = try map(descriptor, capacity: size)
        let identity = Int64(littleEndian: base.load(fromByteOffset: 24, as: Int64.self))
        let segment = JournalSegment(sequence: sequence, identity: identity, url: url, capacity: size, base: base)
        guard UInt32(littleEndian: base.load(as: UInt32.self)) == magic,
            UInt32(littleEndian: base.load(fromByteOffset: 4, as: UInt32.self)) == formatVersion
        else {
            let written = UnsafeRawBufferPointer(start: base, count: size).contains { $0 != 0 }
            return written ? .damaged(segment) : .unfinished
        }
        return .segment(segment)
    }

    private static func writeZeros(_ descriptor: Int32, count: Int) throws {
        let zeros = [UInt8](repeating: 0, count: min(count, 64 << 10))
        var written = 0
        while written < count {
            let chunk = min(zeros.count, count - written)
            let result = zeros.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, chunk, off_t(written)) }
            if result < 0 {
                if errno == EINTR { continue }
                throw JournalError.system("size a segment", errno)
            }
            written += result
        }
    }

    private static func map(_ descriptor: Int32, capacity: Int) throws -> UnsafeMutableRawPointer {
        let address = mmap(nil, capacity, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0)
        guard let address, address != MAP_FAILED else { throw JournalError.system("map a segment", errno) }
        return address
    }

    /// Deletes the file; the mapping goes with the object.
    func remove() {
        unlink(url.path)
    }

    /// Lets the kernel take the segment's pages out of the process's resident memory; they
    /// stay in the page cache (and in the file), and come back on the next read.
    func dropResidentPages() {
        #if os(Linux)
        madvise(base, capacity, MADV_DONTNEED)
        #endif
    }

    // MARK: - Frames

    /// Where the first frame starts.
    static var firstFrame: Int { fileHeaderSize }

    /// Claims `size` bytes at `offset` for a body of `bodyLength` bytes: writes the frame's
    /// length, so any reader can step over the frame from now on, even if it is never finished.
    func reserve(at offset: Int, bodyLength: Int) {
        (base + offset).storeBytes(of: UInt32(bodyLength).littleEndian, as: UInt32.self)
    }

    /// Writes `record` into the frame reserved at `offset`, then its CRC, then publishes the
    /// commit word.
    func write(_ record: PendingRecord, at offset: Int, bodyLength: Int) {
        let body = base + offset + Self.frameHeaderSize
        JournalRecordCodec.encode(record, to: body)
        let crc = hermes_crc32c(0, body, bodyLength)
        (base + offset + 4).storeBytes(of: crc.littleEndian, as: UInt32.self)
        hermes_store_release_u32(base + offset + 8, Self.committed.littleEndian)
    }

    /// What stands at `offset`.
    enum Frame {
        /// Nothing was ever reserved here: the segment's frames end.
        case end
        /// Reserved and not (yet) committed; the next frame starts `size` bytes on.
        case incomplete(size: Int)
        /// A complete record.
        case record(PendingRecord, size: Int)
        /// Reserved, but its bytes do not check out (a torn or damaged frame).
        case damaged(size: Int)
    }

    /// The frames that can be trusted in a segment whose header is damaged: from the first
    /// frame on, each complete and verified by its CRC, up to the first that is not.
    /// - Returns: where they end, how many records they hold, and whether a frame that does not
    ///   verify stopped the scan (then that frame is lost, and whatever followed it: how many
    ///   records that was cannot be known).
    func verifiedFrames() -> (end: Int, records: Int, stoppedAtDamage: Bool) {
        var offset = Self.firstFrame
        var records = 0
        // Each record moves the offset on by at least one frame header: the scan ends.
        while offset < capacity {
            switch frame(at: offset) {
            case .record(_, let size):
                records += 1
                offset += size
            case .end:
                return (offset, records, false)
            case .incomplete, .damaged:
                return (offset, records, true)
            }
        }
        return (offset, records, false)
    }

    /// Reads the frame at `offset`. A length that would run past the segment reads as
    /// damaged, taking the rest of the segment.
    func frame(at offset: Int) -> Frame {
        guard offset + Self.frameHeaderSize <= capacity else { return .end }
        let header = base + offset
        let length = Int(UInt32(littleEndian: header.load(as: UInt32.self)))
        guard length > 0 else { return .end }
        let size = Self.frameSize(body: length)
        guard size <= capacity - offset else { return .damaged(size: capacity - offset) }
        guard UInt32(littleEndian: hermes_load_acquire_u32(header + 8)) == Self.committed else { return .incomplete(size: size) }
        let body = UnsafeRawBufferPointer(start: header + Self.frameHeaderSize, count: length)
        guard UInt32(littleEndian: header.load(fromByteOffset: 4, as: UInt32.self)) == hermes_crc32c(0, body.baseAddress, length),
            let record = JournalRecordCodec.decode(body)
        else { return .damaged(size: size) }
        return .record(record, size: size)
    }
}
