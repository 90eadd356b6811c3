import Clocks
import Foundation
@testable import Hermes
import HermesWire
import Testing

struct RealtimeTriggerTests {
    @Test func aRealtimeRecordHeldBackByTheThrottleGoesUpWhenTheWindowEnds() async throws {
        // Given a started client with realtime types in two namespaces
        let harness = Harness()
        var realtime = Harness.jz
        realtime.monitorList = [MonitorItem(type: "pay", isRealtime: true), MonitorItem(type: "view")]
        let client = try harness.client(defaults: ["JZ": realtime], startDelay: .seconds(60))
        var events = client.engine.events.makeAsyncIterator()
        func nextRealtime() async -> UploadEvent? {
            await events.next(until: { if case .triggered(_, .realtime) = $0 { true } else { false } }, limit: 100).last
        }
        client.start()

        // When realtime records come at 0 s, 1.999 s and 2 s, with others that are not realtime
        client.send(type: "appCrash", meta: ["n": 1], payload: Data("s".utf8))  // trigger: hermes
        client.send(type: "appCrash", meta: ["n": 2], payload: Data("s".utf8))  // held back to 2 s
        client.send(type: "pay", prefix: "JZ", meta: ["n": 3])  // trigger: JZ
        client.send(type: "view", prefix: "JZ", meta: ["n": 4])  // not realtime
        client.send(type: "appLag", meta: ["n": 5])  // not realtime
        let atStart = [await nextRealtime(), await nextRealtime()]
        await harness.clock.advance(by: .milliseconds(1_999))
        client.send(type: "appCrash", meta: ["n": 6], payload: Data("s".utf8))  // already held back to 2 s
        await harness.clock.advance(by: .milliseconds(1))
        let atTwo = await nextRealtime()
        client.send(type: "appCrash", meta: ["n": 7], payload: Data("s".utf8))  // held back to 4 s
        await harness.clock.advance(by: .seconds(2))
        let atFour = await nextRealtime()
        await client.shutdown()
        var later: [UploadEvent] = []
        while let event = await events.next() {
            if case .triggered(_, .realtime) = event { later.append(event) }
        }

        // Then each namespace triggers at once, and the records held back trigger once at the
        // end of each 2-second window, no more
        #expect(atStart == [.triggered(namespace: "hermes", .realtime), .triggered(namespace: "JZ", .realtime)])
        #expect(atTwo == .triggered(namespace: "hermes", .realtime))
        #expect(atFour == .triggered(namespace: "hermes", .realtime))
        #expect(later.isEmpty)
    }
}
