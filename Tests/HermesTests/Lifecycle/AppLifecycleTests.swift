import Foundation
import GRDB
@testable import Hermes
import HermesTestKit
import HermesWire
import Testing

/// What the client does when the app leaves and comes back (portable; iOS calls it from UIKit).
struct AppLifecycleTests {
    @Test func enteringTheBackgroundStoresAndUploadsWhatWasAccepted() async throws {
        let harness = Harness()
        let collector = FakeCollector()
        let client = try harness.identityClient(transport: collector.transport)
        client.start()
        let ids = (0..<3).compactMap { client.send(type: "pay", prefix: "JZ", meta: ["i": .int(Int64($0))]).reportID }

        let summaries = await client.didEnterBackground()
        client.willEnterForeground()
        await client.shutdown()

        #expect(summaries["JZ"]?.recordsSent == 3)
        #expect(collector.storedIDs("JZ") == Set(ids))
        #expect(try harness.rows("meta").map { $0["namespace"] as String }.allSatisfy { $0 == "hermes" })
    }
}
