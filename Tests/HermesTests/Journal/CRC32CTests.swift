import CHermesJournal
import HermesWire
import Testing

/// The journal's frame checksum: the CPU's CRC instruction, three lanes at a time, gives the
/// table's CRC-32C for every length and alignment, and continues across splits.
struct CRC32CTests {
    @Test func theCheckValueIsCRC32C() {
        let check = Array("123456789".utf8)
        #expect(hermes_crc32c(0, check, check.count) == 0xE306_9283)
        #expect(hermes_crc32c_portable(0, check, check.count) == 0xE306_9283)
    }

    /// Lengths around one block of three 64-byte lanes (192 bytes) and its multiples, at every
    /// alignment of an 8-byte word, whole and split in two.
    @Test func theHardwarePathMatchesTheTableAtEveryLengthAndAlignment() {
        var random = SplitMix64(seed: 7)
        let bytes = (0..<4_200).map { _ in UInt8.random(in: 0...255, using: &random) }
        var mismatches: [String] = []
        bytes.withUnsafeBytes { buffer in
            for length in 0...1_200 {
                for alignment in 0..<8 {
                    let start = buffer.baseAddress! + alignment
                    let expected = hermes_crc32c_portable(0, start, length)
                    if hermes_crc32c(0, start, length) != expected { mismatches.append("whole \(length) at +\(alignment)") }
                    let first = length / 3
                    let continued = hermes_crc32c(hermes_crc32c(0, start, first), start + first, length - first)
                    if continued != expected { mismatches.append("split \(length) at +\(alignment)") }
                }
            }
            if hermes_crc32c(0, buffer.baseAddress, buffer.count) != hermes_crc32c_portable(0, buffer.baseAddress, buffer.count) {
                mismatches.append("whole \(buffer.count)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    /// One flipped bit anywhere in a frame-sized body changes its CRC.
    @Test func aFlippedBitChangesTheCRC() {
        var bytes = (0..<600).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let original = hermes_crc32c(0, bytes, bytes.count)
        var unchanged: [Int] = []
        for bit in 0..<(bytes.count * 8) {
            bytes[bit / 8] ^= 1 << (bit % 8)
            if hermes_crc32c(0, bytes, bytes.count) == original { unchanged.append(bit) }
            bytes[bit / 8] ^= 1 << (bit % 8)
        }
        #expect(unchanged.isEmpty)
    }
}
