import NIOSSL

/// HTTPS served by the collector itself, for a small install without a proxy in front: a PEM
/// certificate chain (the server's certificate first, then its intermediates) and the PEM
/// private key that goes with it. Several instances still sit behind a proxy that ends TLS.
///
/// ```swift
/// configuration.tls = CollectorTLS(certificateChainFile: "/etc/hermes/cert.pem", privateKeyFile: "/etc/hermes/key.pem")
/// ```
public struct CollectorTLS: Sendable, Hashable {
    /// The PEM file of the certificate chain, the server's certificate first.
    public var certificateChainFile: String
    /// The PEM file of the certificate's private key (RSA or EC).
    public var privateKeyFile: String

    /// A TLS setting from its two files; they are read when the server starts.
    public init(certificateChainFile: String, privateKeyFile: String) {
        self.certificateChainFile = certificateChainFile
        self.privateKeyFile = privateKeyFile
    }

    /// The server's TLS configuration, read from the two files: TLS 1.2 or later, HTTP/1.1.
    /// - Throws: ``CollectorError/Code/invalidTLS`` naming the file that cannot be read as PEM,
    ///   or a key that does not match the certificate.
    func loaded() throws(CollectorError) -> TLSConfiguration {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificateChainFile)
        } catch {
            throw CollectorError(.invalidTLS, "cannot read \(certificateChainFile) as PEM certificates: \(error)")
        }
        guard !chain.isEmpty else { throw CollectorError(.invalidTLS, "\(certificateChainFile) holds no PEM certificate") }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(file: privateKeyFile, format: .pem)
        } catch {
            throw CollectorError(.invalidTLS, "cannot read \(privateKeyFile) as a PEM private key: \(error)")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        configuration.applicationProtocols = ["http/1.1"]
        do {
            // Building the context checks that the key matches the certificate, at start rather
            // than at the first connection.
            _ = try NIOSSLContext(configuration: configuration)
        } catch {
            throw CollectorError(.invalidTLS, "\(privateKeyFile) is not the key of the certificate in \(certificateChainFile): \(error)")
        }
        return configuration
    }

    /// Reads the two files as the server's start does, to refuse bad settings before serving.
    /// - Throws: ``CollectorError/Code/invalidTLS`` saying which file is wrong.
    package func check() throws(CollectorError) {
        _ = try loaded()
    }
}
