import Foundation
import Hermes
import HermesWire

// A collector started as in "Run the collector"; without one, the records wait on disk for a later try.
let collector = ProcessInfo.processInfo.environment["HERMES_COLLECTOR"] ?? "http://127.0.0.1:8080"
let key = (0..<16).map { UInt8($0) }  // that collector's `--aes-key 1:000102030405060708090a0b0c0d0e0f`

let client = try HermesClient(configuration: .init(
    storageDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("hermes-quickstart"),
    app: .init(name: "Shop", version: "1.2.0", build: "42"),
    configURL: URL(string: collector + "/v1/config"),
    credentials: .init(appKey: "shop-ios", wireFormat: .v2(try AESGCMCipher(key: key, keyID: 1))),
    namespaceDefaults: ["JZ": NamespaceConfiguration(monitorList: [MonitorItem(type: "pay", isRealtime: true)])]))
client.start()                                                                   // returns at once
client.send(type: "appCrash", meta: ["signal": "SIGSEGV"], payload: Data("0 Shop main".utf8))  // namespace `hermes`
client.send(type: "pay", prefix: "JZ", meta: ["amount": 12])                     // MONITOR_TYPE "JZ-pay"
try await client.flush()                                                         // durable on disk
for (namespace, round) in await client.upload().sorted(by: { $0.key < $1.key }) {
    print("\(namespace): \(round.outcome)")  // "completed", or "retry later (…)" with no collector
}
await client.shutdown()                                                          // stops every timer
