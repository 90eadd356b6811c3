import Crypto
import HermesWire
import Testing

struct CipherTests {
    let key = Array<UInt8>(hex: "000102030405060708090a0b0c0d0e0f")!
    let iv = Array<UInt8>(hex: "f0e0d0c0b0a090807060504030201000")!
    let plaintext = Array("hermes: seventeen!".utf8)

    @Test func aesCBCMatchesOpenSSL() throws {
        let cipher = try AESCBCCipher(key: key, iv: iv)
        let sealed = try cipher.seal(plaintext, authenticating: [])
        #expect(sealed.count == 32)  // 18 bytes padded to two blocks (PKCS#7)
        guard let result = try runTool("openssl", ["enc", "-d", "-aes-128-cbc", "-K", key.hex, "-iv", iv.hex], input: sealed) else {
            print("skipped: the openssl command is not installed")
            return
        }
        #expect(result.status == 0)
        #expect(result.output == plaintext)
        #expect(try cipher.open(sealed, authenticating: []) == plaintext)
    }

    @Test func weDecryptOpenSSLsAESCBC() throws {
        guard let result = try runTool("openssl", ["enc", "-e", "-aes-128-cbc", "-K", key.hex, "-iv", iv.hex], input: plaintext) else {
            print("skipped: the openssl command is not installed")
            return
        }
        #expect(try AESCBCCipher(key: key, iv: iv).open(result.output, authenticating: []) == plaintext)
    }

    @Test func aesCBCRejectsBadKeysAndBadCiphertext() throws {
        expectWireError(.invalidKey) { try AESCBCCipher(key: Array(key.prefix(15)), iv: iv) }
        expectWireError(.invalidKey) { try AESCBCCipher(key: key, iv: Array(iv.prefix(8))) }
        let cipher = try AESCBCCipher(key: key, iv: iv)
        expectWireError(.decryptionFailed) { try cipher.open(Array(repeating: 1, count: 15), authenticating: []) }
        expectWireError(.decryptionFailed) { try cipher.open([], authenticating: []) }
        let otherKey = try AESCBCCipher(key: Array(repeating: 9, count: 16), iv: iv)
        let sealed = try cipher.seal(plaintext, authenticating: [])
        // A wrong key gives bad padding, or (rarely) garbage: never the plaintext.
        #expect((try? otherKey.open(sealed, authenticating: [])) != plaintext)
    }

    @Test func aesGCMUsesAFreshNonceAndAuthenticatesTheHeader() throws {
        let cipher = try AESGCMCipher(key: key, keyID: 4)
        let header = Array("header".utf8)
        let first = try cipher.seal(plaintext, authenticating: header)
        let second = try cipher.seal(plaintext, authenticating: header)
        #expect(first.count == 12 + plaintext.count + 16)
        #expect(first.prefix(12) != second.prefix(12))
        #expect(try cipher.open(first, authenticating: header) == plaintext)
        expectWireError(.authenticationFailed) { try cipher.open(first, authenticating: Array("headeR".utf8)) }
        var flipped = first
        flipped[20] ^= 1
        expectWireError(.authenticationFailed) { try cipher.open(flipped, authenticating: header) }
        expectWireError(.authenticationFailed) { try cipher.open(Array(first.prefix(27)), authenticating: header) }
        expectWireError(.invalidKey) { try AESGCMCipher(key: Array(key.prefix(10)), keyID: 1) }
    }

    @Test func systemNoncesAreTwelveRandomBytesThatNeverRepeat() {
        let generator = SystemNonceGenerator()
        let nonces = (0..<10_000).map { _ in generator.nextNonce() }
        #expect(nonces.allSatisfy { $0.count == 12 })
        #expect(Set(nonces).count == nonces.count)
        // Every byte is drawn: each position takes nearly all 256 values over 10,000 nonces
        // (fewer than 200 has a probability far below 10⁻⁵⁰ for random bytes).
        for position in 0..<12 {
            #expect(Set(nonces.map { $0[position] }).count > 200, "byte \(position)")
        }
    }

    @Test func hpkeSealsToThePublicKeyAndOnlyThePrivateKeyOpens() throws {
        let serverKey = Curve25519.KeyAgreement.PrivateKey()
        let app = try HPKECipher(recipientRawKey: Array(serverKey.publicKey.rawRepresentation), keyID: 9)
        let collector = HPKECipher(privateKey: serverKey, keyID: 9)
        let header = Array("header".utf8)

        let sealed = try app.seal(plaintext, authenticating: header)

        #expect(sealed.count == 32 + plaintext.count + 16)
        #expect(try collector.open(sealed, authenticating: header) == plaintext)
        expectWireError(.invalidKey) { try app.open(sealed, authenticating: header) }
        expectWireError(.authenticationFailed) { try collector.open(sealed, authenticating: []) }
        let stranger = HPKECipher(privateKey: Curve25519.KeyAgreement.PrivateKey(), keyID: 9)
        expectWireError(.authenticationFailed) { try stranger.open(sealed, authenticating: header) }
        expectWireError(.invalidKey) { try HPKECipher(recipientRawKey: [1, 2, 3], keyID: 1) }
    }

    @Test func theKeyringFindsCiphersByAlgorithmAndKeyID() throws {
        let gcm1 = try AESGCMCipher(key: key, keyID: 1)
        let cbc = try AESCBCCipher(key: key, iv: iv)
        let keyring = Keyring([gcm1, cbc])
        #expect(keyring.cipher(.aesGCM, keyID: 1)?.keyID == 1)
        #expect(keyring.cipher(.aesGCM, keyID: 2) == nil)
        #expect(keyring.cipher(.aes128CBC, keyID: 0)?.algorithm == .aes128CBC)
        #expect(keyring.cipher(.hpke, keyID: 1) == nil)
    }
}
