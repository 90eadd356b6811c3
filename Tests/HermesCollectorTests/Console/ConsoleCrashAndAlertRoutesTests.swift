import HermesCollector
import HermesWire
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

struct ConsoleCrashAndAlertRoutesTests {
    typealias Crashes = CrashGroupStorageTests

    @Test func theCrashPagesListGroupsAndShowTheLatestStack() async throws {
        var fixture = try CollectorFixture.console()
        fixture.configuration.wallClock = { Crashes.day + 3 * Crashes.hour }
        try await Crashes.store(
            [
                try Crashes.crash("c1", in: "checkout", at: Crashes.day, user: "ann"),
                try Crashes.crash("c2", in: "checkout", at: Crashes.day + Crashes.hour, user: "bob"),
                try Crashes.crash("c3", in: "render", at: Crashes.day + 2 * Crashes.hour, user: "ann"),
            ], in: fixture.storage)
        _ = try await Crashes.groupAll(fixture.storage)
        try await fixture.test { [storage = fixture.storage] client in
            let viewer = try await ConsoleTestSession.signIn(client, storage: storage, role: .viewer)
            let list = try await client.console("/console/api/crashes?days=1", session: viewer).json()
            let groups = try #require(list["groups"]?.arrayValue)
            #expect(groups.map { $0["count"] } == [1, 2])
            #expect(groups.last?["usersAffected"] == 2)
            #expect(groups.last?["title"]?.stringValue?.contains("checkout") == true)
            let signature = try #require(groups.last?["signature"]?.stringValue)
            let detail = try await client.console("/console/api/crashes/\(signature)?days=1", session: viewer).json()
            #expect(detail["latest"]?["reportID"] == "c2")
            #expect(detail["latest"]?["payloadText"]?.stringValue?.contains("Shop.checkout()") == true)
            #expect(detail["bucket"] == 3_600_000)
            #expect(detail["buckets"] == [[.int(Crashes.day), 1], [.int(Crashes.day + Crashes.hour), 1]])
            #expect(try await client.console("/console/api/crashes/nope?days=1", session: viewer).status == .notFound)
            #expect(try await client.console("/console/api/crashes?days=0", session: viewer).status == .badRequest)
        }
    }

    @Test func editorsMakeAndRemoveAlertRulesAndViewersOnlyRead() async throws {
        let fixture = try CollectorFixture.console()
        try await fixture.test { [storage = fixture.storage] client in
            let editor = try await ConsoleTestSession.signIn(client, storage: storage, name: "ed", role: .editor)
            let viewer = try await ConsoleTestSession.signIn(client, storage: storage, name: "vic", role: .viewer)
            let draft: JSONValue = ["name": "crashes", "kind": ["type": "crashRate", "threshold": 5, "windowMinutes": 10], "enabled": true]
            #expect(try await client.console("/console/api/alerts", method: .post, session: viewer, body: draft).status == .forbidden)
            let made = try await client.console("/console/api/alerts", method: .post, session: editor, body: draft)
            #expect(made.status == .ok)
            let id = try #require(try made.json()["id"]?.stringValue)
            #expect(try made.json()["secret"]?.stringValue?.count == 64)
            let bad = try await client.console(
                "/console/api/alerts", method: .post, session: editor,
                body: ["name": "x", "kind": ["type": "crashRate", "threshold": -1, "windowMinutes": 10]])
            #expect(bad.status == .badRequest)
            let listed = try await client.console("/console/api/alerts", session: viewer).json()
            #expect(listed["rules"]?.arrayValue?.map { $0["createdBy"] } == ["ed"])
            // A viewer is never sent a signing secret; an editor is
            #expect(listed["rules"]?.arrayValue?.map { $0["secret"] } == [nil])
            let edited = try await client.console("/console/api/alerts", session: editor).json()
            #expect(edited["rules"]?.arrayValue?.map { $0["secret"] } == [try made.json()["secret"]])
            // A rule without a webhook: the test is logged only
            let test = try await client.console("/console/api/alerts/\(id)/test", method: .post, session: editor)
            #expect(try test.json()["status"] == "skipped")
            #expect(try await client.console("/console/api/alerts/\(id)", method: .delete, session: viewer).status == .forbidden)
            #expect(try await client.console("/console/api/alerts/\(id)", method: .delete, session: editor).status == .ok)
        }
        #expect(try await fixture.storage.alertRules().isEmpty)
    }

    @Test func theOverviewAddsUpTheRollupAndTheSDKsDeliveryHealth() async throws {
        var fixture = try CollectorFixture.console()
        let now: Int64 = 1_795_400_000_000
        fixture.configuration.wallClock = { now }
        func health(_ id: String, version: String, lost: [String: JSONValue], queue: Int64) throws -> IngestRecord {
            IngestRecord(
                namespace: "hermes", reportID: id, monitorType: MonitorType.sdkHealth, createTime: now - 1_000,
                meta: try CollectorFixture.metaLine(
                    id, namespace: "hermes", type: MonitorType.sdkHealth, createTime: now - 1_000,
                    extra: ["APP_VERSION": .string(version), "lost": .object(lost), "queueDepth": .int(queue)]), payload: nil)
        }
        _ = try await fixture.storage.store(
            IngestBatch(
                records: [
                    try health("h1", version: "1.0", lost: ["evicted": 3], queue: 5),
                    try health("h2", version: "1.0", lost: ["evicted": 2, "expired": 1], queue: 7),
                ], deviceID: "d1", batchID: "b", receivedAt: now - 1_000))
        try await fixture.test { [storage = fixture.storage] client in
            let viewer = try await ConsoleTestSession.signIn(client, storage: storage, role: .viewer)
            let overview = try await client.console("/console/api/overview", session: viewer).json()
            #expect(overview["minutes"]?["hermes"] == [[.int((now - 1_000) / 60_000), 2]])
            let health = try #require(overview["deliveryHealth"])
            #expect(health["reports"] == 2)
            #expect(health["devices"] == 1)
            #expect(health["queued"] == 7)
            #expect(
                health["lost"] == [["reason": "evicted", "appVersion": "1.0", "lost": 5], ["reason": "expired", "appVersion": "1.0", "lost": 1]])
        }
    }
}
