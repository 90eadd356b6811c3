#if canImport(CommonCrypto)
import CommonCrypto
#else
internal import Crypto
internal import _CryptoExtras
#endif

/// The raw AES the v1 cipher and the SDK's id generator need: CBC with PKCS#7 padding, and the
/// keystream of counter mode. On Apple platforms through CommonCrypto, so that an app's build of the
/// SDK compiles no BoringSSL; elsewhere through swift-crypto's `_CryptoExtras`.
///
/// The CommonCrypto branch is the small part that cannot be compiled on Linux: it is three
/// `CCCrypt` calls, checked against the same vectors as the Linux branch on Apple platforms.
package enum AESBlock {
    /// AES-CBC with PKCS#7 padding; `key` 16 bytes, `iv` 16 bytes.
    /// - Throws: ``HermesWireError/Code/encryptionFailed`` or `decryptionFailed`.
    package static func cbc(_ input: [UInt8], key: [UInt8], iv: [UInt8], encrypt: Bool) throws(HermesWireError) -> [UInt8] {
        let failure = HermesWireError(encrypt ? .encryptionFailed : .decryptionFailed, "AES-128-CBC \(encrypt ? "encryption" : "decryption") failed")
        #if canImport(CommonCrypto)
        guard let output = crypt(input, key: key, iv: iv, encrypt: encrypt, options: CCOptions(kCCOptionPKCS7Padding)) else { throw failure }
        return output
        #else
        do {
            let key = SymmetricKey(data: key)
            let iv = try AES._CBC.IV(ivBytes: iv)
            return Array(encrypt ? try AES._CBC.encrypt(input, using: key, iv: iv) : try AES._CBC.decrypt(input, using: key, iv: iv))
        } catch {
            throw failure
        }
        #endif
    }

    /// The AES-CTR keystream of `blocks` blocks under a 16-byte `key`: the encryptions of the
    /// counter block `nonce` (16 bytes, a big-endian number) and the `blocks - 1` after it. One
    /// key schedule and one call for all of them, so that a caller needing many random blocks
    /// pays those once.
    /// - Throws: ``HermesWireError/Code/encryptionFailed`` for a key or nonce of another size.
    package static func keystream(key: [UInt8], nonce: [UInt8], blocks: Int) throws(HermesWireError) -> [UInt8] {
        let failure = HermesWireError(.encryptionFailed, "AES-CTR needs a 16-byte key and nonce")
        guard key.count == 16, nonce.count == 16, blocks >= 0 else { throw failure }
        #if canImport(CommonCrypto)
        var counters: [UInt8] = []
        counters.reserveCapacity(blocks * 16)
        var counter = nonce
        for _ in 0..<blocks {
            counters += counter
            for index in (0..<16).reversed() {
                counter[index] &+= 1
                if counter[index] != 0 { break }
            }
        }
        guard let output = crypt(counters, key: key, iv: nil, encrypt: true, options: CCOptions(kCCOptionECBMode)) else { throw failure }
        return Array(output.prefix(blocks * 16))
        #else
        do {
            let zeros = [UInt8](repeating: 0, count: blocks * 16)
            return Array(try AES._CTR.encrypt(zeros, using: SymmetricKey(data: key), nonce: AES._CTR.Nonce(nonceBytes: nonce)))
        } catch {
            throw failure
        }
        #endif
    }

    #if canImport(CommonCrypto)
    private static func crypt(_ input: [UInt8], key: [UInt8], iv: [UInt8]?, encrypt: Bool, options: CCOptions) -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: input.count + kCCBlockSizeAES128)
        var moved = 0
        let status = CCCrypt(
            CCOperation(encrypt ? kCCEncrypt : kCCDecrypt), CCAlgorithm(kCCAlgorithmAES), options, key, key.count, iv, input, input.count,
            &output, output.count, &moved)
        return status == CCCryptorStatus(kCCSuccess) ? Array(output.prefix(moved)) : nil
    }
    #endif
}
