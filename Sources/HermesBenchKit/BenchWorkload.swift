public import Foundation
public import Hermes
public import HermesWire
import Logging

/// The client and the records the benchmarks and the burst harnesses share, so that every
/// figure is measured on the same data and configuration.
public enum BenchWorkload: Sendable {
    /// The business namespace benchmark records go to.
    public static let namespace = "bench"

    /// Its configuration: one monitored type, room for every record of a run.
    public static let configuration = NamespaceConfiguration(
        monitorList: [MonitorItem(type: "appLag")], maxCacheCount: 1_000_000
    )

    /// A client storing in `directory`, with ``namespace`` configured and no collector.
    public static func client(directory: URL) throws -> HermesClient {
        try HermesClient(
            configuration: .init(
                storageDirectory: directory,
                app: .init(name: "Bench", version: "1.0.0", build: "1"),
                credentials: .init(appKey: "bench", wireFormat: .v2(try AESGCMCipher(key: Array(repeating: 1, count: 16), keyID: 1))),
                namespaceDefaults: [namespace: configuration]
            ),
            logger: Logger(label: "hermes.bench")
        )
    }

    /// The event of a burst (`hermes torture burst`, the memory figure of `hermes bench store`):
    /// five properties, `n` its number.
    public static func burstEvent(_ n: Int64) -> [String: JSONValue] {
        ["n": .int(n), "scene": "FeedViewController", "duration_ms": .int(250 + n % 900), "thread": "main", "network": "wifi"]
    }
}
