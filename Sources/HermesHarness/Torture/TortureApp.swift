package import Foundation
package import Hermes
package import HermesWire

/// A torture child app: where its collector is, the collector's key, and the client's storage
/// directory (the same for every run of a torture), as the child's command line carries them.
package struct TortureApp {
    package var collector: URL
    package var key: [UInt8]
    package var storage: URL

    package init(collector: URL, key: [UInt8], storage: URL) {
        self.collector = collector
        self.key = key
        self.storage = storage
    }

    /// The arguments that give a child app these options (`--collector`, `--key`, `--storage`).
    package static func arguments(collector: TortureCollector, storage: URL) -> [String] {
        ["--collector", collector.baseURL.absoluteString, "--key", Hex.string(collector.key), "--storage", storage.path]
    }

    /// A client of the collector, storing in the storage directory, configured by `document`.
    package func client(document: ConfigurationDocument) throws -> HermesClient {
        try TortureScenario.client(collector: collector, key: key, directory: storage, requestTimeout: .seconds(5), document: document)
    }
}
