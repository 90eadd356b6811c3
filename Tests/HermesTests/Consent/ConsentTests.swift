import Foundation
import GRDB
@testable import Hermes
import HermesTestKit
import HermesWire
import Logging
import Testing

/// Consent: pending stores without uploading, granted uploads, denied stores nothing and deletes.
struct ConsentTests {
    @Test(.timeLimit(.minutes(1)))
    func pendingStoresButUploadsNothingUntilGranted() async throws {
        // Given a client whose user has not answered yet
        let harness = Harness()
        let collector = FakeCollector()
        let client = try harness.identityClient(transport: collector.transport) { $0.initialConsent = .pending }
        client.start()
        let ids = (0..<3).compactMap { client.send(type: "pay", prefix: "JZ", meta: ["i": .int(Int64($0))]).reportID }
        try await client.flush()

        // When an upload is asked for, nothing goes out and the records stay
        let summaries = await client.upload()
        #expect(summaries["JZ"]?.outcome == .consentNotGranted)
        #expect(collector.transport.requests.isEmpty)
        #expect(try harness.rows("meta").filter { $0["namespace"] == "JZ" }.count == 3)

        // When consent is granted, the stored records go up without being asked
        var sent = collector.transport.sent.makeAsyncIterator()
        await client.setConsent(.granted)
        let request = await sent.next()
        #expect(request?.url.path.hasSuffix("meta") == true)
        try await client.flush()
        _ = await client.upload()  // waits for the round the grant started
        await client.shutdown()
        #expect(collector.storedIDs("JZ") == Set(ids))
    }

    @Test func deniedRejectsSendAndDeletesAndCountsWhatWasStored() async throws {
        let harness = Harness()
        let logs = CapturedLogs()
        let client = try harness.identityClient(logger: logs.logger)
        for index in 0..<4 { client.send(type: "pay", prefix: "JZ", meta: ["i": .int(Int64(index))]) }
        client.send(type: "appLag", meta: ["ms": 30])
        try await client.flush()

        await client.setConsent(.denied)
        let outcomes = (0..<10).map { _ in client.send(type: "pay", prefix: "JZ", meta: ["i": 1]) }
        try await client.flush()

        #expect(outcomes.allSatisfy { $0.code == .consentDenied })
        #expect(try harness.rows("meta").isEmpty)
        let losses = client.diagnostics().losses
        #expect(losses["JZ"]?[.consentDenied] == 4 && losses["hermes"]?[.consentDenied] == 1)
        // logged once, when consent changed; not once per rejected send
        #expect(logs.all.filter { $0.message.contains("consent changed") }.count == 1)
        #expect(!logs.all.contains { $0.message.contains("record rejected") })
        await client.shutdown()
    }

    @Test func consentIsKeptAcrossLaunches() async throws {
        let harness = Harness()
        let first = try harness.identityClient()
        #expect(first.consent == .granted)
        await first.setConsent(.denied)
        await first.shutdown()

        let second = try harness.identityClient { $0.initialConsent = .granted }
        #expect(second.consent == .denied)
        #expect(second.send(type: "appLag", meta: ["ms": 1]).code == .consentDenied)
        await second.setConsent(.granted)
        #expect(second.send(type: "appLag", meta: ["ms": 1]).isAccepted)
        await second.shutdown()
    }
}
