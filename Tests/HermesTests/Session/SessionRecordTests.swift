import Clocks
import Foundation
@testable import Hermes
import HermesTestKit
import HermesWire
import Testing

/// The client's `sessionStart` / `sessionEnd` records, on the injected clock.
struct SessionRecordTests {
    @Test func aLongBackgroundEndsTheSessionWithItsDurationAndStartsANewOne() async throws {
        // Given a started client (offline, so the background upload keeps the rows)
        let harness = Harness()
        let client = try harness.identityClient(network: StaticNetworkMonitor(.unreachable)) { $0.sessionTimeout = .seconds(1_800) }
        client.start()
        let first = client.sessionID

        // When the app is used for a minute, then stays in the background for 31 minutes
        await harness.clock.advance(by: .seconds(60))
        await client.didEnterBackground()
        await harness.clock.advance(by: .seconds(31 * 60))
        client.willEnterForeground()
        let second = client.sessionID
        // and then for ten minutes, which keeps the session
        await client.didEnterBackground()
        await harness.clock.advance(by: .seconds(10 * 60))
        client.willEnterForeground()
        try await client.flush()
        await client.shutdown()

        // Then the first session ended with its minute, and a second one started
        #expect(first != second && client.sessionID == second)
        let metas = try harness.metas("meta")
        #expect(metas.map { $0["MONITOR_TYPE"] } == ["sessionStart", "sessionEnd", "sessionStart", "sessionEnd"])
        #expect(metas.map { $0["SESSION_ID"] } == [.string(first), .string(first), .string(second), .string(second)])
        #expect(metas[1]["durationMs"] == 60_000 && metas[1]["reason"] == "timeout")
        #expect(metas[0]["reason"] == "start" && metas[2]["reason"] == "timeout")
        // the second session went on through the short background and ended at shutdown
        #expect(metas[3]["reason"] == "shutdown" && metas[3]["durationMs"] == 600_000)
    }

    @Test func aServerThatDoesNotMonitorSessionsGetsNoSessionRecord() async throws {
        let harness = Harness()
        let client = try harness.quietClient(transport: harness.transport)
        client.start()
        client.send(type: "appLag", meta: ["ms": 1])
        await client.shutdown()
        #expect(try harness.metas("meta").map { $0["MONITOR_TYPE"] } == ["appLag"])
        #expect(try harness.metas("meta").first?["SESSION_ID"] == .string(client.sessionID))
    }
}
