import HermesCollector
import HermesWire
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

struct ConsoleNamespaceRoutesTests {
    static let shop = "/console/api/namespaces/shop"

    @Test func anEditBasedOnAnOlderVersionIsRefusedAndTheHistoryRevertsIt() async throws {
        let fixture = try CollectorFixture.console()
        try await fixture.test { client in
            let ada = try await ConsoleTestSession.signIn(client, storage: fixture.storage, name: "ada", role: .editor)
            let bob = try await ConsoleTestSession.signIn(client, storage: fixture.storage, name: "bob", role: .editor)
            // Ada creates the namespace; both open it at her version
            let created = try await client.console(Self.shop, method: .put, session: ada, body: ["configuration": ["maxItem": 50], "etag": "absent"])
            #expect(created.status == .ok)
            let opened = try #require(try created.json()["etag"]?.stringValue)
            // Bob saves first
            let bobs = try await client.console(
                Self.shop, method: .put, session: bob, body: ["configuration": ["maxItem": 20], "etag": .string(opened)])
            #expect(bobs.status == .ok)
            // Ada's save on the version she opened is refused, and Bob's stands
            let late = try await client.console(
                Self.shop, method: .put, session: ada, body: ["configuration": ["maxItem": 70], "etag": .string(opened)])
            #expect(late.status == .preconditionFailed)
            #expect(try late.json()["error"] == "editConflict")
            let listed = try await client.console("/console/api/namespaces", session: ada).json()
            let shop = try #require(listed["namespaces"]?.arrayValue?.first { $0["name"] == "shop" })
            #expect(shop["configuration"]?["maxItem"] == 20)
            // The history names who changed what; reverting Bob's change puts Ada's back
            let history = try await client.console(Self.shop + "/history", session: ada).json()
            let changes = try #require(history["changes"]?.arrayValue)
            #expect(changes.map { $0["author"] } == ["bob", "ada"])
            #expect(changes.first?["before"]?["maxItem"] == 50)
            let bobsChange = try #require(changes.first?["id"]?.intValue)
            let currentTag = try #require(shop["etag"])
            let reverted = try await client.console(
                "/console/api/changes/\(bobsChange)/revert", method: .post, session: ada, body: ["etag": currentTag])
            #expect(reverted.status == .ok)
            #expect(try reverted.json()["configuration"]?["maxItem"] == 50)
        }
        let saved = try await fixture.storage.loadConfiguration()
        #expect(saved?.namespaces["shop"]?.maxItem == 50)
        #expect(saved?.revision == 3)
    }

    @Test func aPreviewShowsTheClampedResultAndSavesNothing() async throws {
        let fixture = try CollectorFixture.console()
        try await fixture.test { client in
            let ada = try await ConsoleTestSession.signIn(client, storage: fixture.storage, role: .viewer)
            let preview = try await client.console(
                Self.shop + "/preview", method: .post, session: ada,
                body: ["configuration": ["maxItem": 500, "monitorList": [["type": "order", "sampleRate": 2]]]])
            #expect(preview.status == .ok)
            let json = try preview.json()
            #expect(json["configuration"]?["maxItem"] == 100)
            #expect(json["configuration"]?["monitorList"]?[0]?["sampleRate"] == 1.0)
            #expect(json["adjustments"]?.arrayValue?.count == 2)
        }
        #expect(try await fixture.storage.loadConfiguration() == nil)
    }

    @Test func theAdminAPIsChangesAreInTheHistoryToo() async throws {
        let fixture = try CollectorFixture.console()
        try await fixture.test { client in
            _ = try await client.admin("/v1/admin/namespaces/shop/config", method: .put, body: #"{"maxItem":10}"#)
            _ = try await client.admin("/v1/admin/namespaces/shop/config", method: .delete)
        }
        let changes = try await fixture.storage.configurationChanges(namespace: "shop", limit: 10)
        #expect(changes.map(\.author) == ["admin-token", "admin-token"])
        #expect(changes.first?.after == nil)
        #expect(changes.last?.before == nil)
    }
}
