import Clocks
import Foundation
import GRDB
@testable import Hermes
import HermesTestKit
import HermesWire
import Logging
import Testing

/// A 2xx deletes records only when it proves that a Hermes collector stored the batch
/// (docs/delivery.md, "Acknowledgement"): a captive portal, a default backend or a wrong URL
/// answering 200 deletes nothing.
struct UnacknowledgedSuccessTests {
    /// 2xx answers that prove nothing, by name.
    static let bogusAnswers: [String: @Sendable (FakeCollector.Received) -> TransportResponse] = [
        "empty body": { _ in TransportResponse(status: 200) },
        "OK": { _ in TransportResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Array("OK".utf8)) },
        "{}": { _ in TransportResponse(status: 200, headers: ["Content-Type": "application/json"], body: Array("{}".utf8)) },
        "HTML page": { _ in
            TransportResponse(
                status: 200, headers: ["Content-Type": "text/html"],
                body: Array("<!DOCTYPE html><html><head><title>Welcome to nginx!</title></head><body><h1>Welcome to nginx!</h1></body></html>".utf8))
        },
        "miscounted answer": { received in
            let answer = UploadAnswer(stored: received.reportIDs.count + 1, duplicates: 0)
            return TransportResponse(status: 200, body: (try? answer.json.jsonBytes()) ?? [])
        },
    ]

    @Test(arguments: bogusAnswers.keys.sorted())
    func aSuccessThatProvesNothingDeletesNothingAndARealAnswerLaterDeliversEveryRecordOnce(answer name: String) async throws {
        // Given a server that answers JZ's uploads with a 2xx proving nothing
        let harness = Harness()
        let collector = FakeCollector()
        let bogus = try #require(Self.bogusAnswers[name])
        let genuine = Locked(false)
        collector.answer.withLock {
            $0 = { received, _ in received.namespace != "JZ" || genuine.withLock { $0 } ? .stored(received) : bogus(received) }
        }
        let logs = CapturedLogs()
        let client = try HermesClient(
            configuration: harness.configuration(defaults: ["hermes": Harness.quietHermes, "JZ": Harness.jz], transport: collector.transport),
            logger: logs.logger
        )
        client.start()
        let ids = (0..<5).compactMap { client.send(type: "pay", prefix: "JZ", meta: ["i": .int(Int64($0))]).reportID }
        try await client.flush()

        // When upload() meets that answer
        let first = await client.upload()["JZ"]
        let kept = try harness.rows("meta").filter { $0["namespace"] as String == "JZ" }.count
        let inFlight = try await harness.rowsInFlight(client)
        let whileUnacknowledged = client.diagnostics()
        // and again once the server is a Hermes collector
        genuine.withLock { $0 = true }
        let second = await client.upload()["JZ"]
        let after = client.diagnostics()
        await client.shutdown()

        // Then nothing was deleted, the answer was counted and logged once, and the real
        // answer delivered every record exactly once
        guard case .retryLater(let reason)? = first?.outcome else {
            Issue.record("the round ended \(String(describing: first?.outcome))")
            return
        }
        #expect(reason.hasPrefix("unacknowledged HTTP 200"))
        #expect(first?.recordsSent == 0 && first?.requests == 1)
        #expect(kept == 5 && inFlight == 0)
        #expect(whileUnacknowledged.unacknowledged == ["JZ": 1])
        #expect(whileUnacknowledged.losses.isEmpty)
        let warnings = logs.all.filter { $0.message.contains("without a Hermes acknowledgement") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.level == .warning && warnings.first?.metadata["namespace"] == "JZ" && warnings.first?.metadata["status"] == "200")
        #expect(second?.outcome == .completed && second?.recordsSent == 5)
        #expect(after.unacknowledged == ["JZ": 1])
        #expect(collector.storedIDs("JZ") == Set(ids))
        #expect(collector.storedCounts.values.allSatisfy { $0 == 1 })
        #expect(collector.requests.filter { $0.namespace == "JZ" }.map { Set($0.reportIDs) } == [Set(ids), Set(ids)])
        #expect(try harness.rows("meta").isEmpty)
    }

    @Test func theLoggedBodyIsItsFirstHundredBytes() async throws {
        let harness = Harness()
        let collector = FakeCollector()
        let page = String(repeating: "<p>portal</p>", count: 20)
        collector.answer.withLock { $0 = { _, _ in TransportResponse(status: 200, body: Array(page.utf8)) } }
        let logs = CapturedLogs()
        let client = try HermesClient(
            configuration: harness.configuration(defaults: ["hermes": Harness.quietHermes, "JZ": Harness.jz], transport: collector.transport),
            logger: logs.logger
        )
        client.start()
        client.send(type: "pay", prefix: "JZ", meta: ["amount": 1])
        try await client.flush()

        _ = await client.upload()
        await client.shutdown()

        let warning = try #require(logs.all.first { $0.message.contains("without a Hermes acknowledgement") })
        #expect(warning.metadata["body"] == String(page.prefix(100)))
    }

    @Test func aSuccessWithTheAcknowledgementHeaderAndNoBodyDelivers() async throws {
        let harness = Harness()
        let collector = FakeCollector()
        collector.answer.withLock {
            $0 = { received, _ in
                TransportResponse(status: 200, headers: [HermesHeader.batchAcknowledged: received.headers[HermesHeader.batchID] ?? ""])
            }
        }
        let client = try harness.quietClient(transport: collector.transport)
        client.start()
        let ids = (0..<3).compactMap { client.send(type: "pay", prefix: "JZ", meta: ["i": .int(Int64($0))]).reportID }
        try await client.flush()

        let summary = await client.upload()["JZ"]
        let diagnostics = client.diagnostics()
        await client.shutdown()

        #expect(summary?.outcome == .completed && summary?.recordsSent == 3)
        #expect(diagnostics.unacknowledged.isEmpty)
        #expect(collector.storedIDs("JZ") == Set(ids))
        #expect(try harness.rows("meta").filter { $0["namespace"] as String == "JZ" }.isEmpty)
    }

    @Test func anAcknowledgementNamingAnotherBatchProvesNothing() async throws {
        let harness = Harness()
        let collector = FakeCollector()
        collector.answer.withLock { $0 = { _, _ in TransportResponse(status: 200, headers: [HermesHeader.batchAcknowledged: "another-batch"]) } }
        let client = try harness.quietClient(transport: collector.transport)
        client.start()
        client.send(type: "pay", prefix: "JZ", meta: ["amount": 1])
        try await client.flush()

        let summary = await client.upload()["JZ"]
        let diagnostics = client.diagnostics()
        await client.shutdown()

        #expect(summary?.recordsSent == 0)
        #expect(diagnostics.unacknowledged["JZ"] == 1)
        #expect(try harness.rows("meta").filter { $0["namespace"] as String == "JZ" }.count == 1)
    }

    @Test func acceptingUnacknowledgedSuccessDeletesOnABare200() async throws {
        // Given a client set to accept any 2xx, and a server answering a bare 200
        let harness = Harness()
        let collector = FakeCollector()
        collector.answer.withLock { $0 = { _, _ in TransportResponse(status: 200) } }
        var configuration = harness.configuration(defaults: ["hermes": Harness.quietHermes, "JZ": Harness.jz], transport: collector.transport)
        configuration.acceptsUnacknowledgedSuccess = true
        let client = try HermesClient(configuration: configuration)
        client.start()
        for index in 0..<4 { client.send(type: "pay", prefix: "JZ", meta: ["i": .int(Int64(index))]) }
        try await client.flush()

        // When the records are uploaded
        let summary = await client.upload()["JZ"]
        let diagnostics = client.diagnostics()
        await client.shutdown()

        // Then they count as delivered and leave the store, as before acknowledgements
        #expect(summary?.outcome == .completed && summary?.recordsSent == 4)
        #expect(diagnostics.unacknowledged.isEmpty)
        #expect(try harness.rows("meta").filter { $0["namespace"] as String == "JZ" }.isEmpty)
    }

    @Test func anUnacknowledgedRoundIsRetriedAfterTheUsualBackoff() async throws {
        // Given a started client whose only timers are far away, and a server answering JZ
        // with a bare 200 first
        let harness = Harness()
        let collector = FakeCollector()
        let genuine = Locked(false)
        collector.answer.withLock { $0 = { received, _ in genuine.withLock { $0 } ? .stored(received) : TransportResponse(status: 200) } }
        var jz = Harness.jz
        jz.periodicTimerSecond = 600
        let client = try harness.client(
            defaults: ["hermes": Harness.quietHermes, "JZ": jz], transport: collector.transport, startDelay: .seconds(600))
        var events = client.engine.events.makeAsyncIterator()
        client.start()
        client.send(type: "pay", prefix: "JZ", meta: ["amount": 1])
        try await client.flush()

        // When a round meets the bare 200, and the server then acknowledges
        client.engine.trigger("JZ", .periodic)
        let first = await events.nextRound(of: "JZ")
        genuine.withLock { $0 = true }
        // The first backoff is 0.5 to 1 s.
        await harness.clock.advance(by: .seconds(1))
        let second = await events.nextRound(of: "JZ")
        await client.shutdown()

        // Then the backoff's own round delivers the record
        #expect(first.summary?.recordsSent == 0)
        #expect(second.triggers.contains(.retry))
        #expect(second.summary?.recordsSent == 1)
        #expect(try harness.rows("meta").filter { $0["namespace"] as String == "JZ" }.isEmpty)
    }
}
