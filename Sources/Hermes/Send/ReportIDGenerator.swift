import Crypto
import _CryptoExtras
import Synchronization

/// Makes `REPORT_ID`s: random-looking (version 4) UUIDs, unique per record, without a system
/// call or a lock: each is a counter encrypted with AES under a key drawn from the system's
/// secure generator for this generator alone — the counter mode of a CTR_DRBG (NIST SP 800-90A).
///
/// The cipher is a permutation, so one generator never repeats an id; two generators have
/// independent keys, so their ids collide only by chance (122 random bits).
final class ReportIDGenerator: Sendable {
    /// A generator for ids that need no generator of their own (upload batch ids).
    static let shared = ReportIDGenerator()

    private let key = SymmetricKey(size: .bits128)
    private let counter = Atomic<UInt64>(0)
    private static let hex = Array("0123456789ABCDEF".utf8)

    /// The next id, as 36 upper-case hexadecimal digits and dashes.
    func next() -> String {
        let count = counter.wrappingAdd(1, ordering: .relaxed).newValue
        var block = [UInt8](repeating: 0, count: 16)
        withUnsafeBytes(of: count.littleEndian) { block.replaceSubrange(0..<8, with: $0) }
        do {
            try AES.permute(&block, key: key)
        } catch {
            // Only a block or key of the wrong size throws, and both sizes are fixed above.
            var generator = SystemRandomNumberGenerator()
            block = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        }
        block[6] = (block[6] & 0x0F) | 0x40  // version 4
        block[8] = (block[8] & 0x3F) | 0x80  // RFC 4122 variant
        return String(unsafeUninitializedCapacity: 36) { buffer in
            var index = 0
            for (position, byte) in block.enumerated() {
                if position == 4 || position == 6 || position == 8 || position == 10 {
                    buffer[index] = UInt8(ascii: "-")
                    index += 1
                }
                buffer[index] = Self.hex[Int(byte >> 4)]
                buffer[index + 1] = Self.hex[Int(byte & 0x0F)]
                index += 2
            }
            return index
        }
    }
}
