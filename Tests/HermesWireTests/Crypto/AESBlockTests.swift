import HermesWire
import Testing

struct AESBlockTests {
    /// FIPS-197, appendix C.1 (AES-128).
    @Test func oneBlockIsEncryptedAsFIPS197Says() throws {
        let key = try AESBlock.Key(Array<UInt8>(hex: "000102030405060708090a0b0c0d0e0f")!)
        var block = Array<UInt8>(hex: "00112233445566778899aabbccddeeff")!
        try block.withUnsafeMutableBytes { try AESBlock.permute($0, key: key) }
        #expect(block == Array<UInt8>(hex: "69c4e0d86a7b0430d8cdb78070b4c55a")!)
    }

    @Test func aKeyOrBlockOfAnotherSizeIsRefused() throws {
        #expect(throws: HermesWireError.self) { try AESBlock.Key([1, 2, 3]) }
        let key = try AESBlock.Key(Array(repeating: 0, count: 16))
        var short = [UInt8](repeating: 0, count: 15)
        #expect(throws: HermesWireError.self) { try short.withUnsafeMutableBytes { try AESBlock.permute($0, key: key) } }
    }
}
