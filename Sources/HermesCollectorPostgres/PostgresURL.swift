import Foundation
import HermesCollector
import NIOSSL
import PostgresNIO

/// A `postgres://user:password@host:port/database?sslmode=…` URL as a client configuration.
///
/// `sslmode` is `disable`, `prefer` (the default, as with libpq), `require` or `verify-full`; the port
/// defaults to 5432, the user to `postgres`, the database to the user's name.
struct PostgresURL: Sendable {
    let configuration: PostgresClient.Configuration
    /// The URL without its password, for logs.
    let redacted: String

    /// - Throws: ``CollectorError/Code/storageFailed`` for a URL that is not a PostgreSQL URL.
    init(_ text: String) throws(CollectorError) {
        guard let components = URLComponents(string: text),
            let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme),
            let host = components.host, !host.isEmpty
        else {
            throw CollectorError(.storageFailed, "the storage URL must look like postgres://user:password@host:5432/database")
        }
        let user = components.user ?? "postgres"
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let database = path.isEmpty ? user : path
        let sslMode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "prefer"
        // As with libpq: prefer and require encrypt without checking the certificate; verify-full checks it.
        var unverified = TLSConfiguration.makeClientConfiguration()
        unverified.certificateVerification = .none
        let tls: PostgresClient.Configuration.TLS
        switch sslMode {
        case "disable": tls = .disable
        case "prefer": tls = .prefer(unverified)
        case "require": tls = .require(unverified)
        case "verify-full": tls = .require(.makeClientConfiguration())
        default: throw CollectorError(.storageFailed, "sslmode must be disable, prefer, require or verify-full, not \(sslMode)")
        }
        let port = components.port ?? 5432
        configuration = PostgresClient.Configuration(
            host: host, port: port, username: user, password: components.password, database: database, tls: tls
        )
        redacted = "\(scheme)://\(user)@\(host):\(port)/\(database)"
    }

    /// ``configuration`` with a pool of `size` connections (at least 2), all opened at start and
    /// kept open: a fixed-size pool. A connection lent and given back then arms no timer, where
    /// an idle timeout or a keep-alive ping would start and cancel a timer task on every
    /// statement (about 60 µs of CPU each time). A connection the server or the network closes
    /// is replaced; a statement that was running on it fails, and the SDK sends that batch again.
    func configuration(poolSize size: Int) -> PostgresClient.Configuration {
        var configuration = configuration
        configuration.options.maximumConnections = max(2, size)
        configuration.options.minimumConnections = configuration.options.maximumConnections
        configuration.options.keepAliveBehavior = nil
        return configuration
    }
}
