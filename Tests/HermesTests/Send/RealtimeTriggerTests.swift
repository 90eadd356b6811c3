import Clocks
import Foundation
@testable import Hermes
import HermesWire
import Testing

struct RealtimeTriggerTests {
    @Test func realtimeTypesTriggerAnUploadAtMostOncePerTwoSecondsPerNamespace() async throws {
        let harness = Harness()
        var realtime = Harness.jz
        realtime.monitorList = [MonitorItem(type: "pay", isRealtime: true), MonitorItem(type: "view")]
        let client = try harness.client(defaults: ["JZ": realtime])

        client.send(type: "appCrash", meta: ["n": 1], payload: Data("s".utf8))   // trigger: hermes
        client.send(type: "appCrash", meta: ["n": 2], payload: Data("s".utf8))   // throttled
        client.send(type: "pay", prefix: "JZ", meta: ["n": 3])                   // trigger: JZ
        client.send(type: "view", prefix: "JZ", meta: ["n": 4])                  // not realtime
        client.send(type: "appLag", meta: ["n": 5])                              // not realtime
        await harness.clock.advance(by: .milliseconds(1_999))
        client.send(type: "appCrash", meta: ["n": 6], payload: Data("s".utf8))   // still throttled
        await harness.clock.advance(by: .milliseconds(1))
        client.send(type: "appCrash", meta: ["n": 7], payload: Data("s".utf8))   // trigger: hermes
        await client.shutdown()

        var triggers: [UploadEvent] = []
        for await event in client.engine.events {
            if case .triggered(_, .realtime) = event { triggers.append(event) }
        }
        #expect(triggers == [
            .triggered(namespace: "hermes", .realtime),
            .triggered(namespace: "JZ", .realtime),
            .triggered(namespace: "hermes", .realtime),
        ])
    }
}
