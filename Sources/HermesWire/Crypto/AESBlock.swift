#if canImport(CommonCrypto)
import CommonCrypto
#else
internal import Crypto
internal import _CryptoExtras
#endif

/// The raw AES the v1 cipher and the SDK's id generator need: CBC with PKCS#7 padding, and one
/// block encrypted alone. On Apple platforms through CommonCrypto, so that an app's build of the
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

    /// A 16-byte AES key, checked and prepared once, for callers that encrypt many single
    /// blocks under it (the id generator): no key copy per block.
    package struct Key: Sendable {
        #if canImport(CommonCrypto)
        fileprivate let bytes: [UInt8]
        #else
        fileprivate let key: SymmetricKey
        #endif

        /// - Throws: ``HermesWireError/Code/encryptionFailed`` for a key of another size.
        package init(_ bytes: [UInt8]) throws(HermesWireError) {
            guard bytes.count == 16 else { throw HermesWireError(.encryptionFailed, "AES needs a 16-byte key") }
            #if canImport(CommonCrypto)
            self.bytes = bytes
            #else
            key = SymmetricKey(data: bytes)
            #endif
        }
    }

    /// Encrypts one 16-byte `block` in place under `key` (no mode, no padding).
    /// - Throws: ``HermesWireError/Code/encryptionFailed`` for a block of another size.
    package static func permute(_ block: UnsafeMutableRawBufferPointer, key: Key) throws(HermesWireError) {
        let failure = HermesWireError(.encryptionFailed, "AES needs a 16-byte block")
        guard block.count == 16 else { throw failure }
        #if canImport(CommonCrypto)
        guard let output = crypt(Array(block), key: key.bytes, iv: nil, encrypt: true, options: CCOptions(kCCOptionECBMode)) else { throw failure }
        block.copyBytes(from: output.prefix(16))
        #else
        var bytes = block.bindMemory(to: UInt8.self)
        do {
            try AES.permute(&bytes, key: key.key)
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
