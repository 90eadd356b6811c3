import Clocks
import Foundation
import GRDB
@testable import Hermes
import HermesTestKit
import HermesWire
import Testing

struct UploadOutcomeTests {
    @Test func aSuccessfulRoundDeliversEveryRecordOnceAndEmptiesTheStore() async throws {
        let harness = Harness()
        let collector = FakeCollector()
        let client = try harness.client(defaults: ["hermes": Harness.quietHermes, "JZ": Harness.jz], transport: collector.transport)
        client.start()
        var ids: [String] = []
        for index in 0..<250 { ids.append(client.send(type: "appLag", meta: ["i": .int(Int64(index))]).reportID!) }
        ids.append(client.send(type: "appCrash", meta: ["signal": "SIGABRT"], payload: Data("stack".utf8)).reportID!)
        ids.append(client.send(type: "pay", prefix: "JZ", meta: ["amount": 3]).reportID!)
        try await client.flush()

        let summaries = await client.upload()
        await client.shutdown()

        #expect(summaries["hermes"]?.recordsSent == 251)
        #expect(summaries["hermes"]?.outcome == .completed)
        #expect(summaries["JZ"]?.recordsSent == 1)
        #expect(collector.storedIDs("hermes").union(collector.storedIDs("JZ")) == Set(ids))
        #expect(collector.storedCounts.values.allSatisfy { $0 == 1 })
        #expect(try harness.rows("meta").isEmpty && harness.rows("payload").isEmpty)
        // Headers of specification §6.6 on every request.
        let first = try #require(collector.requests.first { $0.namespace == "hermes" })
        #expect(first.headers[HermesHeader.appKey] == "test-key")
        #expect(first.headers[HermesHeader.packetVersion] == "2")
        #expect(UUID(uuidString: first.headers[HermesHeader.batchID] ?? "") != nil)
        #expect(
            first.headers[HermesHeader.deviceID] == (try harness.metas("meta").first?["DEVICE_ID"]?.stringValue)
                ?? first.headers[HermesHeader.deviceID])
        #expect(collector.requests.allSatisfy { $0.reportIDs.count <= 100 })
    }

    @Test func serverErrorsPutTheBatchBackAndBackOffWhileUploadStillRetries() async throws {
        // Given a collector failing the first 3 requests with 500, 503 and a reset connection
        let harness = Harness()
        let collector = FakeCollector()
        collector.answer.withLock { $0 = { received, index in index < 2 ? TransportResponse(status: [500, 503][index]) : .stored(received) } }
        let failOnce = FailOnce()
        let failing = InMemoryTransport { request in
            if collector.requests.count == 2, !failOnce.fired() {
                throw URLError(.networkConnectionLost)
            }
            return try await collector.transport.send(request)
        }
        let client = try harness.client(transport: failing)
        client.start()
        let ids = (0..<30).compactMap { client.send(type: "appLag", meta: ["i": .int(Int64($0))]).reportID }
        try await client.flush()

        // When upload() is called until it completes
        var outcomes: [UploadSummary.Outcome] = []
        for _ in 0..<6 {
            let summary = await client.upload()["hermes"]
            outcomes.append(summary?.outcome ?? .cancelled)
            if summary?.outcome == .completed { break }
        }
        let pendingBeforeShutdown = try await client.writer.perform { store in
            try store.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM meta") ?? -1 }
        }
        await client.shutdown()

        // Then every record was stored exactly once and nothing is left in flight
        #expect(outcomes.count == 4)
        #expect(outcomes.last == .completed)
        #expect(collector.storedIDs("hermes") == Set(ids))
        #expect(collector.storedCounts.values.allSatisfy { $0 == 1 })
        #expect(pendingBeforeShutdown == 0)
    }

    @Test func aTransportFailingItsFirstCallsDeliversEveryRecordOnceInEveryNamespace() async throws {
        // Given 25 records in each of three namespaces, 10-record batches, and a transport whose
        // first 7 calls fail with a network error
        let harness = Harness()
        let collector = FakeCollector()
        let failuresLeft = Locked(7)
        let transport = InMemoryTransport { request in
            let fails = failuresLeft.withLock { left in
                defer { left = max(0, left - 1) }
                return left > 0
            }
            if fails { throw URLError(.notConnectedToInternet) }
            return try await collector.transport.send(request)
        }
        var hermes = Harness.quietHermes
        var jz = Harness.jz
        hermes.maxItem = 10
        jz.maxItem = 10
        let client = try harness.client(defaults: ["hermes": hermes, "JZ": jz, "XY": jz], transport: transport)
        client.start()
        var ids: [String: Set<String>] = [:]
        for index in 0..<25 {
            ids["hermes", default: []].insert(client.send(type: "appLag", meta: ["i": .int(Int64(index))]).reportID ?? "")
            for prefix in ["JZ", "XY"] {
                ids[prefix, default: []].insert(client.send(type: "pay", prefix: prefix, meta: ["i": .int(Int64(index))]).reportID ?? "")
            }
        }
        try await client.flush()

        // When upload() is called until every namespace completes in the same call (at most 10 calls)
        var calls = 0
        var outcomes: [String: UploadSummary.Outcome] = [:]
        while calls < 10, outcomes.values.contains(where: { $0 != .completed }) || outcomes.isEmpty {
            outcomes = await client.upload().mapValues(\.outcome)
            calls += 1
        }
        let leftInStore = try await client.writer.perform { store in
            try store.pool.read { try Int.fetchOne($0, sql: "SELECT (SELECT COUNT(*) FROM meta) + (SELECT COUNT(*) FROM payload)") ?? -1 }
        }
        await client.shutdown()

        // Then every record was stored exactly once and nothing is left
        #expect(outcomes == ["hermes": .completed, "JZ": .completed, "XY": .completed])
        #expect(calls > 1)
        for (namespace, expected) in ids {
            #expect(collector.storedIDs(namespace) == expected)
        }
        #expect(collector.storedCounts.count == 75)
        #expect(collector.storedCounts.values.allSatisfy { $0 == 1 })
        #expect(failuresLeft.withLock { $0 } == 0)
        #expect(leftInStore == 0)
    }

    @Test func tooLargeHalvesTheBatchForTheNamespace() async throws {
        let harness = Harness()
        let collector = FakeCollector()
        collector.answer.withLock { $0 = { received, _ in received.reportIDs.count > 20 ? TransportResponse(status: 413) : .stored(received) } }
        let client = try harness.client(defaults: ["hermes": Harness.quietHermes], transport: collector.transport)
        client.start()
        for index in 0..<100 { client.send(type: "appLag", meta: ["i": .int(Int64(index))]) }
        try await client.flush()
        let summary = await client.upload()["hermes"]
        await client.shutdown()
        #expect(summary?.recordsSent == 100)
        // 100 → 50 → 25 → 12: then every batch fits.
        #expect(collector.requests.map(\.reportIDs.count).prefix(4) == [100, 50, 25, 12])
        #expect(collector.storedIDs("hermes").count == 100)
    }

    @Test func batchesGrowBackAfterTheCollectorStopsRefusingThem() async throws {
        // Given a collector that refuses the first three batches as too large, then takes all
        let harness = Harness()
        let collector = FakeCollector()
        collector.answer.withLock { $0 = { received, index in index < 3 ? TransportResponse(status: 413) : .stored(received) } }
        let client = try harness.client(defaults: ["hermes": Harness.quietHermes], transport: collector.transport)
        client.start()
        for index in 0..<700 { client.send(type: "appLag", meta: ["i": .int(Int64(index))]) }
        try await client.flush()

        // When the namespace uploads everything
        let summary = await client.upload()["hermes"]
        await client.shutdown()

        // Then it shrinks to 12 rows, and doubles after every ten delivered batches
        let sizes = collector.requests.map(\.reportIDs.count)
        let expected = [100, 50, 25] + Array(repeating: 12, count: 10) + Array(repeating: 24, count: 10) + Array(repeating: 48, count: 7) + [4]
        #expect(sizes == expected)
        #expect(summary?.recordsSent == 700)
        #expect(collector.storedIDs("hermes").count == 700)
    }

    @Test func retryAfterIsHonouredBeforeTheNextAutomaticRound() async throws {
        // Given a started client whose only timers are far away, and a collector answering 429
        // with Retry-After: 7 first
        let harness = Harness()
        let collector = FakeCollector()
        collector.answer.withLock {
            $0 = { received, index in index == 0 ? TransportResponse(status: 429, headers: ["Retry-After": "7"]) : .stored(received) }
        }
        var hermes = NamespaceConfiguration.hermesDefault
        hermes.periodicTimerSecond = 30
        let client = try harness.client(defaults: ["hermes": hermes], transport: collector.transport, startDelay: .seconds(60))
        var events = client.engine.events.makeAsyncIterator()
        client.start()

        // When a crash (realtime) is refused with 429
        client.send(type: "appCrash", meta: ["n": 1], payload: Data("s".utf8))
        let first = await events.nextRound(of: "hermes")
        #expect(first.triggers == [.realtime])
        #expect(first.summary?.outcome == .retryLater(reason: "HTTP 429: "))

        // Then a second crash inside the throttle window waits for its end (2 s), where the
        // backoff holds it, and the round at 7 s delivers both
        client.send(type: "appCrash", meta: ["n": 2], payload: Data("s".utf8))
        await harness.clock.advance(by: .seconds(6))
        let requestsBeforeSeven = collector.requests.count
        await harness.clock.advance(by: .seconds(1))
        let second = await events.nextRound(of: "hermes")
        await client.shutdown()
        #expect(requestsBeforeSeven == 1)
        #expect(second.triggers.contains(.retry))
        #expect(second.summary?.recordsSent == 2)
        #expect(collector.requests.count == 2)
    }

    @Test func aHungNamespaceDoesNotStallTheOthersAndShutdownLeavesItsBatchPending() async throws {
        let harness = Harness()
        let collector = FakeCollector()
        let transport = InMemoryTransport { request in
            if request.headers[HermesHeader.namespace] == "JZ" { return try await HangingTransport().send(request) }
            return try await collector.transport.send(request)
        }
        let client = try harness.client(transport: transport)
        var events = client.engine.events.makeAsyncIterator()
        client.start()
        client.send(type: "pay", prefix: "JZ", meta: ["stuck": true])
        client.send(type: "appLag", meta: ["fine": true])
        try await client.flush()

        client.engine.trigger("JZ", .periodic)
        client.engine.trigger("hermes", .periodic)
        var finished: [UploadSummary] = []
        while finished.isEmpty, let event = await events.next() {
            if case .finished(let summary) = event { finished.append(summary) }
        }
        #expect(finished.map(\.namespace) == ["hermes"])
        #expect(collector.storedIDs("hermes").count == 1)

        await client.shutdown()
        let jz = try harness.rows("meta")
        #expect(jz.count == 1)
        #expect(jz.first?["namespace"] as String? == "JZ")
    }
}

/// A one-shot switch for a scripted failure.
final class FailOnce: Sendable {
    private let done = Locked(false)
    func fired() -> Bool {
        done.withLock { value in
            defer { value = true }; return value
        }
    }
}
