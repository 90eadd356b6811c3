package import Foundation
package import Hermes
package import HermesWire
package import Logging

/// The client and the records the benchmarks and the burst harnesses share, so that every
/// figure is measured on the same data and configuration.
package enum BenchWorkload: Sendable {
    /// The business namespace benchmark records go to.
    package static let namespace = "bench"

    /// Its configuration: one monitored type, room for every record of a run.
    package static let configuration = NamespaceConfiguration(
        monitorList: [MonitorItem(type: "appLag")], maxCacheCount: 1_000_000
    )

    /// The key both ends of a benchmark seal and open packets with.
    package static func cipher() throws -> AESGCMCipher {
        try AESGCMCipher(key: Array(repeating: 1, count: 16), keyID: 1)
    }

    /// The app key a benchmark's collector accepts.
    package static let appKey = "bench"

    /// A client storing in `directory`, with ``namespace`` configured.
    /// - Parameters:
    ///   - collector: the collector's base URL (`http://host:port`); `nil`: no collector.
    ///   - transport: what posts the uploads (`PlatformTransport` when `nil`).
    package static func client(directory: URL, collector: URL? = nil, transport: (any Transport)? = nil) throws -> HermesClient {
        try HermesClient(
            configuration: .init(
                storageDirectory: directory,
                app: .init(name: "Bench", version: "1.0.0", build: "1"),
                configURL: collector?.appendingPathComponent("v1/config"),
                credentials: .init(appKey: appKey, wireFormat: .v2(try cipher())),
                namespaceDefaults: [namespace: configuration],
                transport: transport ?? PlatformTransport()
            ),
            logger: Logger(label: "hermes.bench")
        )
    }

    /// The event of a burst (`hermes torture burst`, the memory figure of `hermes bench store`):
    /// five properties, `n` its number.
    package static func burstEvent(_ n: Int64) -> [String: JSONValue] {
        ["n": .int(n), "scene": "FeedViewController", "duration_ms": .int(250 + n % 900), "thread": "main", "network": "wifi"]
    }
}
