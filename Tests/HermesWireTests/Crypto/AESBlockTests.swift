import HermesWire
import Testing

struct AESBlockTests {
    /// NIST SP 800-38A, F.5.1 (CTR-AES128.Encrypt): the keystream is each ciphertext block XOR
    /// its plaintext block. The counter's low bytes run over `…fdfeff` into `…fdff00`, so the
    /// carry past the last byte is checked too.
    @Test func theKeystreamIsNISTsCounterMode() throws {
        let key = Array<UInt8>(hex: "2b7e151628aed2a6abf7158809cf4f3c")!
        let counter = Array<UInt8>(hex: "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff")!
        let plaintext = Array<UInt8>(
            hex: "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
                + "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710")!
        let ciphertext = Array<UInt8>(
            hex: "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff"
                + "5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee")!
        let keystream = try AESBlock.keystream(key: key, nonce: counter, blocks: 4)
        #expect(keystream.count == 64)
        #expect(zip(keystream, plaintext).map { $0 ^ $1 } == ciphertext)
    }

    @Test func aKeyOrNonceOfAnotherSizeIsRefused() {
        #expect(throws: HermesWireError.self) { try AESBlock.keystream(key: [1, 2, 3], nonce: Array(repeating: 0, count: 16), blocks: 1) }
        #expect(throws: HermesWireError.self) { try AESBlock.keystream(key: Array(repeating: 0, count: 16), nonce: [0], blocks: 1) }
    }
}
