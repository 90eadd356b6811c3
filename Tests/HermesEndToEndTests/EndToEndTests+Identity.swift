import ArgumentParser
import Foundation
@testable import Hermes
@testable import hermes
import HermesCollector
import HermesHarness
import HermesWire
import Testing

/// Identity, properties and sessions as the real collector stores them.
extension EndToEndTests {
    @Test func theCollectorStoresTheIdentityFieldsAndGlobalProperties() async throws {
        let loopback = try Loopback()
        let server = try await loopback.startCollector()
        let client = try loopback.client(port: server.port)
        client.start()
        await client.refreshConfiguration()
        client.identify(userID: "u-e2e")
        try client.register(["plan": "pro"])
        let id = try #require(client.send(type: "pay", prefix: "JZ", meta: ["amount": 5]).reportID)
        try await client.flush()
        _ = await client.upload()
        await client.shutdown()

        let events = try await loopback.storage.events(EventQuery(namespace: "JZ", limit: EventQuery.maximumLimit))
        try await server.shutdown()
        let event = try #require(events.first { $0.reportID == id })
        #expect(event.meta["USER_ID"] == "u-e2e")
        #expect(event.meta["ANON_ID"] == .string(client.anonymousID))
        #expect(event.meta["SESSION_ID"] == .string(client.sessionID))
        #expect(event.meta["plan"] == "pro")
    }

    @Test func theDemoPrintsOneJSONObjectWithSessionsUsersCrashesAndNothingMissing() async throws {
        let demo = try #require(try HermesCommand.parseAsRoot(["demo", "--json"]) as? DemoCommand)
        let report = try await demo.report { _ in }
        let object = try JSONValue(parsing: Array(report.summary.json().utf8))
        guard case .object(let members) = object else { Issue.record("not an object"); return }
        #expect(Set(members.keys) == ["namespaces", "sessions", "users", "missing", "captured_crashes"])
        #expect(object["sessions"] == 2 && object["users"] == 1 && object["missing"] == 0)
        #expect(object["namespaces"]?["JZ"]?["accepted"] == 800 && object["namespaces"]?["JZ"]?["stored"] == 800)
        guard case .array(let crashes)? = object["captured_crashes"] else { Issue.record("no captured_crashes array"); return }
        #expect(crashes.count == 1)
        #expect(crashes.first?["stack"]?.stringValue?.contains("crashProbeIndexesPastTheEnd") == true)
    }
}
