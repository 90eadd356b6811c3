import Foundation
import GRDB
@testable import Hermes
import HermesTestKit
import HermesWire
import Testing

extension TransportResponse {
    /// The collector's refusal: `status` with its JSON body.
    static func refusal(_ status: Int, _ error: String, scope: CollectorRefusal.Scope = .request) -> TransportResponse {
        let body = CollectorRefusal(error: error, reason: "refused by the test", scope: scope).json
        return TransportResponse(status: status, headers: ["Content-Type": "application/json"], body: (try? body.jsonBytes()) ?? [])
    }
}

/// Refusals that are not about the records never delete them (docs/delivery.md); only the
/// records a 2xx answer lists as rejected leave the store undelivered.
extension UploadOutcomeTests {
    static let refusals: [(response: TransportResponse, reason: UploadBlock.Reason)] = [
        (.refusal(401, "unauthorized"), .unauthorized),
        (.refusal(403, "forbidden"), .unauthorized),
        (.refusal(404, "notFound"), .collectorNotFound),
        (TransportResponse(status: 410), .collectorNotFound),
        (.refusal(400, "unknownKey", scope: .packet), .packetRefused),
        (.refusal(400, "missingHeader"), .requestRefused),
        (TransportResponse(status: 422), .requestRefused),
    ]

    @Test(arguments: refusals.indices)
    func aRefusalNotAboutTheRecordsKeepsThemAndPausesTheNamespace(index: Int) async throws {
        // Given a collector that refuses JZ's uploads and takes hermes'
        let (refusal, reason) = Self.refusals[index]
        let harness = Harness()
        let collector = FakeCollector()
        let refusing = Locked(true)
        collector.answer.withLock {
            $0 = { received, _ in
                received.namespace == "JZ" && refusing.withLock { $0 } ? refusal : .stored(received)
            }
        }
        let client = try harness.quietClient(transport: collector.transport)
        client.start()
        let pays = (0..<3).compactMap { client.send(type: "pay", prefix: "JZ", meta: ["i": .int(Int64($0))]).reportID }
        client.send(type: "appLag", meta: ["ms": 300])
        try await client.flush()

        // When upload() is called twice while JZ is refused
        let first = await client.upload()
        let second = await client.upload()
        let kept = try harness.rows("meta").filter { $0["namespace"] as String == "JZ" }
        let whileRefused = client.diagnostics()
        // and once more after the collector takes JZ again
        refusing.withLock { $0 = false }
        let third = await client.upload()
        let after = client.diagnostics()
        let inFlight = try await harness.rowsInFlight(client)
        await client.shutdown()

        // Then JZ paused at its first request each time, with every record kept and shown blocked
        #expect(first["JZ"]?.outcome == .paused(reason) && second["JZ"]?.outcome == .paused(reason))
        #expect(first["JZ"]?.requests == 1 && second["JZ"]?.requests == 1 && first["JZ"]?.recordsSent == 0)
        #expect(first["hermes"]?.recordsSent == 1)
        #expect(kept.map { $0["report_id"] as String } == pays)
        #expect(inFlight == 0)
        let block = try #require(whileRefused.blocked["JZ"])
        #expect(block.reason == reason && block.status == refusal.status && block.pauses == 2 && block.since == harness.now)
        #expect((harness.now + 60_000...harness.now + 120_000).contains(block.retryAt))
        #expect(whileRefused.losses.isEmpty)
        // and the first answer after the refusals delivers them and lifts the block
        #expect(third["JZ"]?.recordsSent == 3)
        #expect(after.blocked.isEmpty && after.losses.isEmpty)
        #expect(collector.storedIDs("JZ") == Set(pays))
        #expect(try harness.rows("meta").isEmpty)
    }

    /// A transport for a client with a configuration URL: uploads go to `collector`; each
    /// configuration fetch is counted, announced on `fetches`, and answered by `document`.
    final class ConfigurationServer: Sendable {
        let fetches: AsyncStream<Int>
        private let continuation: AsyncStream<Int>.Continuation
        private let count = Locked(0)
        let published = Locked(false)
        let transport: InMemoryTransport

        init(collector: FakeCollector, document: [UInt8]) {
            (fetches, continuation) = AsyncStream.makeStream()
            let (count, published, continuation) = (count, published, continuation)
            transport = InMemoryTransport { request in
                guard request.method == "GET" else { return try await collector.transport.send(request) }
                continuation.yield(
                    count.withLock {
                        $0 += 1; return $0
                    })
                return published.withLock { $0 }
                    ? TransportResponse(status: 200, headers: ["ETag": "\"2\""], body: document) : TransportResponse(status: 304)
            }
        }

        var fetchCount: Int { count.withLock { $0 } }
    }

    static let configURL = URL(string: "http://127.0.0.1:9/v1/config")!
    static let newDocument = ConfigurationDocument(revision: 2, namespaces: ["hermes": Harness.quietHermes, "JZ": Harness.jz]).jsonBytes()

    @Test(arguments: [(CollectorRefusal.Scope.packet, 2), (.request, 1)])
    func aRefusalOfThePacketAsAWholeAlsoFetchesTheConfiguration(scope: CollectorRefusal.Scope, fetches: Int) async throws {
        // Given a started client that fetched its configuration, whose uploads to JZ get a 400
        let harness = Harness()
        let collector = FakeCollector()
        collector.answer.withLock { $0 = { _, _ in .refusal(400, scope == .packet ? "unknownKey" : "missingHeader", scope: scope) } }
        let server = ConfigurationServer(collector: collector, document: Self.newDocument)
        let client = try harness.client(
            defaults: ["hermes": Harness.quietHermes, "JZ": Harness.jz], configURL: Self.configURL, transport: server.transport)
        var announced = server.fetches.makeAsyncIterator()
        client.start()
        _ = await announced.next()
        client.send(type: "pay", prefix: "JZ", meta: ["amount": 3])
        try await client.flush()

        // When the upload is refused
        let summary = await client.upload()["JZ"]
        await client.shutdown()

        // Then a refusal of the packet (not of the request) fetches once more; the record stays
        #expect(summary?.outcome == .paused(scope == .packet ? .packetRefused : .requestRefused))
        #expect(server.fetchCount == fetches)
        #expect(try harness.rows("meta").count == 1)
    }

    @Test func aConfigurationRefreshWithANewDocumentLiftsThePauseAndItsDoubling() async throws {
        // Given JZ paused twice by 401s
        let harness = Harness()
        let collector = FakeCollector()
        collector.answer.withLock { $0 = { _, _ in .refusal(401, "unauthorized") } }
        let server = ConfigurationServer(collector: collector, document: Self.newDocument)
        let client = try harness.client(
            defaults: ["hermes": Harness.quietHermes, "JZ": Harness.jz], configURL: Self.configURL, transport: server.transport)
        var events = client.engine.events.makeAsyncIterator()
        var announced = server.fetches.makeAsyncIterator()
        client.start()
        _ = await announced.next()
        client.send(type: "pay", prefix: "JZ", meta: ["amount": 3])
        try await client.flush()
        _ = await client.upload()
        _ = await client.upload()
        let pausedTwice = client.diagnostics().blocked["JZ"]?.pauses

        // When a refresh brings nothing new (304), then one brings a new document
        let notModified = await client.refreshConfiguration()
        let afterNotModified = client.diagnostics().blocked["JZ"]?.pauses
        server.published.withLock { $0 = true }
        let refresh = await client.refreshConfiguration()
        let afterRefresh = client.diagnostics().blocked
        // and the next automatic trigger is refused again
        client.engine.trigger("JZ", .periodic)
        _ = await events.next(until: { $0 == .triggered(namespace: "JZ", .periodic) }, limit: 100)
        let round = await events.nextRound(of: "JZ")
        let pausedAgain = client.diagnostics().blocked["JZ"]?.pauses
        await client.shutdown()

        // Then the pause was lifted, the trigger ran, and the doubling started over
        guard case .notModified = notModified, case .updated = refresh else {
            Issue.record("expected 304 then a new document, got \(notModified), \(refresh)"); return
        }
        #expect(pausedTwice == 2 && afterNotModified == 2)
        #expect(afterRefresh.isEmpty)
        #expect(round.summary?.outcome == .paused(.unauthorized))
        #expect(pausedAgain == 1)
        #expect(try harness.rows("meta").count == 1)
    }

    @Test func theCollectorsRejectedRecordsAreDeletedAndTheRestDelivered() async throws {
        // Given a collector that stores JZ's batch except two of its records, one named by
        // REPORT_ID, one (unreadable) by index, and names one that was never sent
        let harness = Harness()
        let collector = FakeCollector()
        let client = try harness.quietClient(transport: collector.transport)
        client.start()
        let ids = (0..<5).compactMap { client.send(type: "pay", prefix: "JZ", meta: ["i": .int(Int64($0))]).reportID }
        try await client.flush()
        collector.answer.withLock {
            $0 = { received, _ in
                .stored(
                    received,
                    rejecting: [
                        .init(index: 1, reportID: received.reportIDs[1], code: "refusedByRule", reason: "not wanted"),
                        .init(index: 3, reportID: nil, code: "invalidField", reason: "CREATE_TIME must be an integer"),
                        .init(index: 9, reportID: "never-sent", code: "invalidField", reason: "CREATE_TIME must be an integer"),
                    ])
            }
        }

        // When the batch is uploaded
        let summary = await client.upload()["JZ"]
        let diagnostics = client.diagnostics()
        await client.shutdown()

        // Then exactly the two rejected records count as rejected, per code, and none is left
        #expect(summary?.recordsSent == 3 && summary?.recordsRejected == 2 && summary?.outcome == .completed)
        #expect(diagnostics.lost("JZ", .rejected) == 2)
        #expect(diagnostics.rejections == ["JZ": ["refusedByRule": 1, "invalidField": 1]])
        #expect(collector.requests.map(\.reportIDs) == [ids])
        #expect(try harness.rows("meta").isEmpty)
    }

    /// A started client whose collector answers every upload with `response`.
    static func startedClient(_ harness: Harness, answering response: TransportResponse) throws -> (FakeCollector, HermesClient) {
        let collector = FakeCollector()
        collector.answer.withLock { $0 = { _, _ in response } }
        let client = try harness.quietClient(transport: collector.transport)
        client.start()
        return (collector, client)
    }

    @Test func aBatchThatKeepsFailingStaysStored() async throws {
        // Given a collector that always answers 503
        let harness = Harness()
        let (collector, client) = try Self.startedClient(harness, answering: TransportResponse(status: 503))
        let ids = (0..<5).compactMap { client.send(type: "pay", prefix: "JZ", meta: ["i": .int(Int64($0))]).reportID }
        try await client.flush()

        // When upload() is tried 12 times
        var outcomes: [UploadSummary.Outcome?] = []
        for _ in 0..<12 { outcomes.append(await client.upload()["JZ"]?.outcome) }
        let diagnostics = client.diagnostics()
        let inFlight = try await harness.rowsInFlight(client)
        await client.shutdown()

        // Then every attempt failed, and every record is still stored and pending
        #expect(outcomes.allSatisfy { $0 == .retryLater(reason: "HTTP 503: ") })
        #expect(collector.requests.count == 12)
        #expect(try harness.rows("meta").map { $0["report_id"] as String } == ids)
        #expect(inFlight == 0)
        #expect(diagnostics.losses.isEmpty && diagnostics.blocked.isEmpty)
    }

    @Test func aSingleRecordTheCollectorFindsTooLargePausesTheNamespaceAndIsKept() async throws {
        let harness = Harness()
        let (collector, client) = try Self.startedClient(harness, answering: TransportResponse(status: 413))
        client.send(type: "pay", prefix: "JZ", meta: ["amount": 3])
        try await client.flush()

        let summary = await client.upload()["JZ"]
        let block = client.diagnostics().blocked["JZ"]
        await client.shutdown()

        #expect(summary?.outcome == .paused(.requestRefused))
        #expect(collector.requests.map(\.reportIDs.count) == [1])
        #expect(block?.status == 413 && block?.reason == .requestRefused)
        #expect(try harness.rows("meta").count == 1)
        #expect(client.diagnostics().losses.isEmpty)
    }
}
