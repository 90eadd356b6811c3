import ArgumentParser
import Foundation
import Hermes
import HermesWire

/// The options of every torture child app: its collector, the collector's key, and the
/// client's storage directory (the same for every run of a torture).
struct TortureAppOptions: ParsableArguments {
    @Option(help: "The collector's base URL.")
    var collector: String

    @Option(help: "The collector's AES-GCM key in hex.")
    var key: String

    @Option(help: "The client's storage directory (the same for every run).")
    var storage: String

    func validate() throws {
        guard URL(string: collector)?.host != nil else { throw ValidationError("--collector must be a URL") }
        guard Hex.bytes(key)?.count == 16 else { throw ValidationError("--key must be 16 bytes in hex") }
    }

    /// The arguments that give a child app these options.
    static func arguments(collector: TortureCollector, storage: URL) -> [String] {
        ["--collector", collector.baseURL.absoluteString, "--key", Hex.string(collector.key), "--storage", storage.path]
    }

    /// The storage directory.
    var storageURL: URL { URL(fileURLWithPath: storage) }

    /// A client of the collector, storing in the storage directory, configured by `document`.
    func client(document: ConfigurationDocument) throws -> HermesClient {
        try TortureScenario.client(
            collector: URL(string: collector)!, key: Hex.bytes(key)!, directory: storageURL, requestTimeout: .seconds(5), document: document
        )
    }
}
