import ArgumentParser
import Foundation
import HermesHarness

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

    /// The child app these options describe.
    var app: TortureApp {
        TortureApp(collector: URL(string: collector)!, key: Hex.bytes(key)!, storage: URL(fileURLWithPath: storage))
    }
}
