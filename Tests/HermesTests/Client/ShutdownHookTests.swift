@testable import Hermes
import HermesWire
import Testing

struct ShutdownHookTests {
    @Test func hooksRunOnceInOrderBeforeTheClientStopsAcceptingRecords() async throws {
        let harness = Harness()
        let client = try harness.client()
        let order = Locked<[String]>([])
        client.addShutdownHook {
            let outcome = client.send(type: "pay", prefix: "JZ", meta: ["from": "hook"])
            order.withLock { $0.append("first \(outcome.isAccepted)") }
        }
        client.addShutdownHook { order.withLock { $0.append("second") } }

        await client.shutdown()
        await client.shutdown()

        #expect(order.withLock { $0 } == ["first true", "second"])
        #expect(try harness.metas("meta").map { $0["from"] } == ["hook"])
    }
}
