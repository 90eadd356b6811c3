import ArgumentParser
import Foundation
import HermesHarness
import HermesSync
import HermesWire

/// `hermes sync device`: a device process of the sync torture. It makes random local changes and
/// syncs after each over loopback HTTP, printing `synced` after each sync, until it is killed.
struct SyncDeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "A device process of the sync torture (killed by its parent).",
        shouldDisplay: false
    )

    @Option var path: String
    @Option var clientID: String
    @Option var port: Int
    @Option var seed: UInt64
    @Option var credential: String

    func run() async throws {
        let transport = HTTPSyncTransport(
            baseURL: URL(string: "http://127.0.0.1:\(port)")!, appKey: SyncTortureServer.appKey, credential: credential, timeout: .seconds(5)
        )
        let client = try SyncClient(path: path, clientID: clientID, schema: SyncTortureSchema.schema, transport: transport)
        var random = SplitMix64(seed: seed)
        let workload = SyncWorkload(clientID: clientID)
        for _ in 0..<100_000 {
            _ = try workload.step(client, random: &random)
            _ = try? await client.sync(maximumExchanges: 20)
            FileHandle.standardOutput.write(Data("synced\n".utf8))
        }
    }
}
