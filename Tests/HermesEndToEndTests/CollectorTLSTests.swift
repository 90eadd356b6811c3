import ArgumentParser
import Foundation
@testable import hermes
import HermesCollector
import HermesHarness
import HermesWire
import Logging
import Testing

/// `hermes collector serve --tls-cert-file … --tls-key-file …`: HTTPS without a proxy, for curl
/// and for the SDK, with a certificate made for the test.
struct CollectorTLSTests {
    /// What a command printed and how it ended.
    struct Run {
        var status: Int32
        var output: String
    }

    /// Runs `executable` with `arguments` on a thread of its own (killed after `timeout`), so the
    /// concurrency pool and the collector it serves go on meanwhile.
    static func run(_ executable: String, _ arguments: [String], timeout: Duration = .seconds(180)) async throws -> Run {
        try await onThread {
            let exit = try ChildProcess(executable: URL(fileURLWithPath: executable), arguments: arguments).wait(timeout: timeout)
            return Run(status: exit.status, output: exit.lines.joined(separator: "\n"))
        }
    }

    /// A self-signed certificate for 127.0.0.1 (P-256, a day) and its key, made by openssl in
    /// `directory`: their paths.
    static func makeCertificate(in directory: URL) async throws -> (certificate: String, key: String) {
        let certificate = directory.appendingPathComponent("cert.pem").path
        let key = directory.appendingPathComponent("key.pem").path
        let made = try await run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", certificate,
            ])
        try #require(made.status == 0, "openssl could not make a certificate (CI installs openssl)")
        return (certificate, key)
    }

    static let arguments = [
        "--app-key", Loopback.appKey, "--admin-token", Loopback.adminToken, "--aes-key", "3:" + Hex.string(Loopback.key), "--port", "0",
    ]

    /// Runs `body` with a collector serving HTTPS on any free port, with a certificate made for
    /// the test, over a SQLite file: with its base URL, the certificate's path and the file's.
    static func withTLSCollector<T: Sendable>(
        _ body: @escaping @Sendable (_ base: String, _ certificate: String, _ database: String) async throws -> T
    ) async throws -> T {
        let result = Locked<T?>(nil)
        try await CollectorServeCommandTests.withFiles([:]) { directory in
            let (certificate, key) = try await Self.makeCertificate(in: directory)
            let database = directory.appendingPathComponent("c.sqlite").path
            let settings = try await CollectorServeCommandTests.settings(
                Self.arguments + ["--storage", database, "--tls-cert-file", certificate, "--tls-key-file", key])
            #expect(settings.summary.contains("tls-cert-file = \(certificate) (flag)"))
            var logger = Logger(label: "hermes.tls.tests")
            logger.logLevel = .error
            let value = try await CollectorServeCommand.serve(settings, logger: logger, stopsOnSignals: false) { server in
                do {
                    let value = try await body("https://127.0.0.1:\(server.port)", certificate, database)
                    try await server.shutdown()
                    return value
                } catch {
                    try? await server.shutdown()
                    throw error
                }
            }
            result.withLock { $0 = value }
        }
        return try #require(result.withLock { $0 })
    }

    @Test func curlGetsHTTPSWithTheCertificateAndNothingWithoutIt() async throws {
        // Given a collector serving HTTPS, when curl asks it trusting the certificate, not trusting
        // it, and in plain HTTP
        let (trusted, untrusted, plain) = try await Self.withTLSCollector { base, certificate, _ in
            let health = base + "/health"
            let status = ["-s", "-o", "/dev/null", "-w", "%{http_code}\n"]
            return (
                try await Self.run("/usr/bin/curl", status + ["--cacert", certificate, health]),
                try await Self.run("/usr/bin/curl", ["-s", "-o", "/dev/null", health]),
                try await Self.run("/usr/bin/curl", status + [health.replacingOccurrences(of: "https:", with: "http:")])
            )
        }
        // Then it was answered over TLS, and refused the unknown certificate (60) and plain HTTP
        #expect(trusted.status == 0 && trusted.output == "200")
        #expect(untrusted.status == 60)
        #expect(plain.status != 0 && plain.output != "200")
    }

    /// The SDK on Linux sends `https://` through URLSession (libcurl), which trusts the system's
    /// CA bundle only: the demo runs in a mount namespace of its own where that bundle also holds
    /// the test's certificate, so the machine's trust store is never touched (root, as in CI).
    @Test(.enabled(if: getuid() == 0 || ProcessInfo.processInfo.environment["CI"] == "true"))
    func theSDKSendsOverHTTPSAndEveryRecordArrives() async throws {
        let hermes = Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("hermes").path
        let systemBundle = "/etc/ssl/certs/ca-certificates.crt"
        let (demo, stored) = try await Self.withTLSCollector { base, certificate, database in
            // Given the system's CA bundle with the test's certificate added
            let bundle = URL(fileURLWithPath: certificate).deletingLastPathComponent().appendingPathComponent("bundle.pem")
            let system = try #require(FileManager.default.contents(atPath: systemBundle))
            try (system + (try #require(FileManager.default.contents(atPath: certificate)))).write(to: bundle)
            // When the demo app sends to the collector over HTTPS and reads back what arrived
            let demo = [
                hermes, "demo", "--collector", base, "--key", Hex.string(Loopback.key), "--key-id", "3", "--app-key", Loopback.appKey,
                "--admin-token", Loopback.adminToken, "--json",
            ]
            let script = "mount --bind \"$0\" \(systemBundle) && exec \"$@\""
            let run = try await Self.run("/usr/bin/unshare", ["--mount", "sh", "-c", script, bundle.path] + demo)
            return (run, try await SQLiteCollectorStorage(path: database).events(EventQuery(limit: EventQuery.maximumLimit)).count)
        }
        // Then every record its app accepted was confirmed, and is at the collector
        #expect(demo.status == 0, "\(demo.output)")
        let summary = try JSONValue(parsing: Array((demo.output.split(separator: "\n").last ?? "").utf8))
        #expect(summary["missing"] == 0)
        #expect(stored > 1_000)
    }

    @Test func aKeyThatIsNotTheCertificatesStopsTheStartSayingWhich() async throws {
        try await CollectorServeCommandTests.withFiles([:]) { directory in
            let first = directory.appendingPathComponent("one")
            let second = directory.appendingPathComponent("two")
            for folder in [first, second] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
            let (certificate, _) = try await Self.makeCertificate(in: first)
            let (_, otherKey) = try await Self.makeCertificate(in: second)
            await #expect {
                _ = try await CollectorServeCommandTests.settings(
                    Self.arguments + ["--storage", "c.sqlite", "--tls-cert-file", certificate, "--tls-key-file", otherKey])
            } throws: { error in
                HermesCommand.message(for: error)
                    .hasPrefix("--tls-cert-file, --tls-key-file: \(otherKey) is not the key of the certificate in \(certificate)")
            }
            await #expect {
                _ = try await CollectorServeCommandTests.settings(Self.arguments + ["--storage", "c.sqlite", "--tls-cert-file", certificate])
            } throws: { error in
                HermesCommand.message(for: error) == "Give --tls-cert-file and --tls-key-file together, or neither for plain HTTP."
            }
        }
    }
}
