import Crypto

extension HPKECipher {
    /// A cipher that can open (and seal), from the collector's raw 32-byte X25519 private key,
    /// for callers that do not import swift-crypto (the `hermes` command line).
    /// - Parameters:
    ///   - privateRawKey: the collector's private key, 32 bytes.
    ///   - keyID: the id the app's packets carry.
    /// - Throws: ``HermesWireError/Code/invalidKey`` if the bytes are not an X25519 private key.
    public init(privateRawKey: [UInt8], keyID: UInt32) throws(HermesWireError) {
        guard let key = try? Curve25519.KeyAgreement.PrivateKey(rawRepresentation: privateRawKey) else {
            throw HermesWireError(.invalidKey, "HPKE needs a 32-byte X25519 private key, got \(privateRawKey.count) bytes")
        }
        self.init(privateKey: key, keyID: keyID)
    }
}
