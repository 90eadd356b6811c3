import HermesWire

/// Makes `REPORT_ID`s: time-ordered (version 7, RFC 9562) UUIDs, without a system call. The
/// first 48 bits are the record's time in milliseconds, so ids made close in time sort together
/// and the unique indexes on the device and at the collector grow at their end instead of at
/// random pages (inserting 100,000 rows ran 3× faster). The other 74 bits are random: the AES-CTR
/// keystream under a key drawn from the system's secure generator for this generator alone —
/// the counter mode of a CTR_DRBG (NIST SP 800-90A).
///
/// The keystream is made ``blocksPerChunk`` blocks at a time, outside any lock: an id takes the
/// next block under a lock held for a few loads, instead of paying a key schedule (and
/// swift-crypto's generic call) of its own.
///
/// Two ids of the same millisecond collide only by chance (74 random bits).
final class ReportIDGenerator: Sendable {
    /// A generator for ids that need no generator of their own (upload batch ids).
    static let shared = ReportIDGenerator()

    /// Keystream blocks made at once: 16 KiB, so that the one id in 1,024 that makes them (a
    /// few microseconds) is past the 99.9th percentile of `send`.
    static let blocksPerChunk = 1_024

    private let key: [UInt8] = {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }()
    private let stream = Locked(Keystream())

    /// Keystream made and not yet used.
    private struct Keystream {
        /// The next chunk number to make: the high 64 bits of its first counter block. Each
        /// number is made once, so no block is ever used twice.
        var nextChunk: UInt64 = 0
        var bytes: [UInt8] = []
        var position = 0

        /// Takes the next block, or `nil` when none is left.
        mutating func take() -> (UInt64, UInt64)? {
            guard position < bytes.count else { return nil }
            defer { position += 16 }
            return bytes.withUnsafeBytes { bytes in
                (bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self), bytes.loadUnaligned(fromByteOffset: position + 8, as: UInt64.self))
            }
        }
    }

    /// The next id, as 36 upper-case hexadecimal digits and dashes.
    /// - Parameter milliseconds: the record's time, ms since 1970.
    func next(milliseconds: Int64) -> String {
        var block = nextBlock()
        withUnsafeMutableBytes(of: &block) { bytes in
            withUnsafeBytes(of: UInt64(clamping: max(0, milliseconds)).bigEndian) { time in
                bytes.baseAddress!.copyMemory(from: time.baseAddress! + 2, byteCount: 6)
            }
            bytes[6] = (bytes[6] & 0x0F) | 0x70  // version 7
            bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
        }
        return withUnsafeBytes(of: &block) { block in
            String(unsafeUninitializedCapacity: 36) { buffer in
                var index = 0
                for position in 0..<16 {
                    if position == 4 || position == 6 || position == 8 || position == 10 {
                        buffer[index] = UInt8(ascii: "-")
                        index += 1
                    }
                    buffer[index] = Self.hexDigit(block[position] >> 4)
                    buffer[index + 1] = Self.hexDigit(block[position] & 0x0F)
                    index += 2
                }
                return index
            }
        }
    }

    /// The upper-case hexadecimal digit of a nibble (computed: a table would be a global to
    /// check for initialisation on every id).
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") - 10 + nibble
    }

    /// The next 16 keystream bytes. A caller that finds none left makes a chunk of its own
    /// outside the lock (so others never wait for AES), keeps its first block, and offers the
    /// rest to the next callers unless another caller's chunk got there first.
    private func nextBlock() -> (UInt64, UInt64) {
        let (taken, chunk) = stream.withLock { stream -> ((UInt64, UInt64)?, UInt64) in
            if let block = stream.take() { return (block, 0) }
            defer { stream.nextChunk &+= 1 }
            return (nil, stream.nextChunk)
        }
        if let taken { return taken }
        var made = Keystream(bytes: makeChunk(chunk))
        let block = made.take()!
        stream.withLock { stream in
            guard stream.position == stream.bytes.count else { return }
            stream.bytes = made.bytes
            stream.position = made.position
        }
        return block
    }

    /// The keystream of counter blocks `chunk‖0` to `chunk‖(blocksPerChunk − 1)`.
    private func makeChunk(_ chunk: UInt64) -> [UInt8] {
        var nonce = [UInt8](repeating: 0, count: 16)
        withUnsafeBytes(of: chunk.bigEndian) { nonce.replaceSubrange(0..<8, with: $0) }
        do {
            return try AESBlock.keystream(key: key, nonce: nonce, blocks: Self.blocksPerChunk)
        } catch {
            // Only a key or nonce of the wrong size throws, and both sizes are fixed above.
            var generator = SystemRandomNumberGenerator()
            return (0..<Self.blocksPerChunk * 16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        }
    }
}
