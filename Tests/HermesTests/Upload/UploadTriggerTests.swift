import Clocks
import Foundation
import GRDB
@testable import Hermes
import HermesTestKit
import HermesWire
import Testing

/// Every trigger of specification §6 starts a round, observed on `client.engine.events`.
struct UploadTriggerTests {
    static let configURL = URL(string: "http://127.0.0.1:9/v1/config")!

    /// `hermes` without automatic triggers and with a 30-second period, so that only JZ's
    /// timer ticks in the time a test advances.
    static let slowHermes: NamespaceConfiguration = {
        var configuration = Harness.quietHermes
        configuration.periodicTimerSecond = 30
        return configuration
    }()

    @Test func startRunsARoundInEveryNamespaceAfterTheStartDelay() async throws {
        // Given records stored in two namespaces of a client not yet started
        let harness = Harness()
        let collector = FakeCollector()
        let client = try harness.quietClient(transport: collector.transport)
        let lag = try #require(client.send(type: "appLag", meta: ["ms": 300]).reportID)
        let pay = try #require(client.send(type: "pay", prefix: "JZ", meta: ["amount": 3]).reportID)
        try await client.flush()
        var events = client.engine.events.makeAsyncIterator()

        // When it starts and the 3-second start delay passes
        client.start()
        await harness.clock.advance(by: .seconds(3))
        let seen = await events.next(until: { _ in false }, limit: 4)
        await client.shutdown()

        // Then both namespaces are triggered by the start and their rounds deliver the records
        #expect(seen.filter { $0.finishedSummary == nil } == [.triggered(namespace: "JZ", .start), .triggered(namespace: "hermes", .start)])
        let summaries = seen.compactMap(\.finishedSummary)
        #expect(Set(summaries.map(\.namespace)) == ["JZ", "hermes"])
        #expect(summaries.allSatisfy { $0.recordsSent == 1 && $0.outcome == .completed })
        #expect(collector.storedIDs("hermes") == [lag])
        #expect(collector.storedIDs("JZ") == [pay])
        #expect(try harness.rows("meta").isEmpty)
    }

    @Test func thePeriodicTimerStartsARoundEveryPeriod() async throws {
        // Given a started client whose JZ namespace uploads every 5 seconds, past its start rounds
        let harness = Harness()
        let collector = FakeCollector()
        let client = try harness.client(defaults: ["hermes": Self.slowHermes, "JZ": Harness.jz], transport: collector.transport)
        var events = client.engine.events.makeAsyncIterator()
        client.start()
        await harness.clock.advance(by: .seconds(3))
        await events.nextRounds(of: ["JZ", "hermes"])

        var rounds: [(triggers: [UploadTrigger], summary: UploadSummary?)] = []
        for elapsed in [2, 5] {
            // When a record is stored and the clock reaches the next tick (5 s, then 10 s)
            client.send(type: "pay", prefix: "JZ", meta: ["tick": .int(Int64(elapsed))])
            try await client.flush()
            await harness.clock.advance(by: .seconds(elapsed))
            rounds.append(await events.nextRound(of: "JZ"))
        }
        await client.shutdown()

        // Then each tick starts a round that delivers the record stored before it
        #expect(rounds.map(\.triggers) == [[.periodic], [.periodic]])
        #expect(rounds.map { $0.summary?.recordsSent } == [1, 1])
        #expect(collector.storedIDs("JZ").count == 2)
    }

    @Test func aNewConfigurationReschedulesThePeriodicTimerToItsNewPeriod() async throws {
        // Given a started client whose JZ namespace uploads every 5 seconds, at its first tick,
        // and a server about to publish a 12-second period
        let harness = Harness()
        let collector = FakeCollector()
        var slowJZ = Harness.jz
        slowJZ.periodicTimerSecond = 12
        let document = ConfigurationDocument(revision: 2, namespaces: ["hermes": Self.slowHermes, "JZ": slowJZ]).jsonBytes()
        let published = Locked(false)
        let transport = InMemoryTransport { request in
            guard request.method == "GET" else { return try await collector.transport.send(request) }
            return published.withLock { $0 }
                ? TransportResponse(status: 200, headers: ["ETag": "\"2\""], body: document) : TransportResponse(status: 304)
        }
        let client = try harness.client(defaults: ["hermes": Self.slowHermes, "JZ": Harness.jz], configURL: Self.configURL, transport: transport)
        var events = client.engine.events.makeAsyncIterator()
        client.start()
        await harness.clock.advance(by: .seconds(3))
        await events.nextRounds(of: ["JZ", "hermes"])
        await harness.clock.advance(by: .seconds(2))
        let firstTick = await events.nextRound(of: "JZ")

        // When the new configuration is applied at 5 s
        published.withLock { $0 = true }
        let outcome = await client.refreshConfiguration()

        // Then the old period's tick at 10 s does not come: a trigger made at 10 s is the next event
        await harness.clock.advance(by: .seconds(5))
        client.engine.trigger("JZ", .realtime)
        let atTen = await events.nextRound(of: "JZ")
        // and the new period ticks at 17 s, 12 s after the configuration arrived
        await harness.clock.advance(by: .seconds(7))
        let atSeventeen = await events.nextRound(of: "JZ")
        await client.shutdown()

        #expect(firstTick.triggers == [.periodic])
        guard case .updated = outcome else { Issue.record("expected the new configuration, got \(outcome)"); return }
        #expect(client.configuration(for: "JZ")?.periodicTimerSecond == 12)
        #expect(atTen.triggers == [.realtime])
        #expect(atSeventeen.triggers == [.periodic])
    }

    @Test func theFlushCountthRecordCommittedStartsARound() async throws {
        // Given a namespace with flushCount 10 holding 9 committed records
        let harness = Harness()
        let collector = FakeCollector()
        var jz = Harness.jz
        jz.flushCount = 10
        let client = try harness.quietClient(jz: jz, transport: collector.transport)
        var events = client.engine.events.makeAsyncIterator()
        client.start()
        for index in 0..<9 { client.send(type: "pay", prefix: "JZ", meta: ["i": .int(Int64(index))]) }
        try await client.flush()

        // When the 10th is committed
        client.send(type: "pay", prefix: "JZ", meta: ["i": 9])
        try await client.flush()
        let round = await events.nextRound(of: "JZ")
        await client.shutdown()

        // Then the first trigger is flushCount, and its round sends all 10 in one batch
        #expect(round.triggers == [.flushCount])
        #expect(round.summary?.recordsSent == 10)
        #expect(collector.requests.map(\.reportIDs.count) == [10])
    }

    @Test func offlineUploadSendsNothingAndRegainingTheNetworkDelivers() async throws {
        // Given a started client with a stored record and no network
        let harness = Harness()
        let collector = FakeCollector()
        let network = ManualNetworkMonitor(.unreachable)
        let client = try harness.quietClient(transport: collector.transport, network: network)
        let pay = try #require(client.send(type: "pay", prefix: "JZ", meta: ["amount": 3]).reportID)
        try await client.flush()
        var events = client.engine.events.makeAsyncIterator()
        client.start()

        // When upload() is called offline
        let offline = await client.upload()
        let requestsOffline = collector.requests.count
        // and then Wi-Fi comes back
        network.set(.unmetered)
        let seen = await events.next(until: { $0.finishedSummary?.recordsSent == 1 })
        await client.shutdown()

        // Then the offline upload sent nothing, and the network's return delivered the record
        #expect(offline.mapValues(\.outcome) == ["hermes": .offline, "JZ": .offline])
        #expect(requestsOffline == 0)
        #expect(seen.contains(.triggered(namespace: "JZ", .networkRegained)))
        #expect(seen.contains(.triggered(namespace: "hermes", .networkRegained)))
        #expect(seen.last?.finishedSummary?.namespace == "JZ")
        #expect(collector.storedIDs("JZ") == [pay])
    }

    @Test func aNetworkChangeRightAfterStartIsNotMissed() async throws {
        // Given a client started offline with a stored record
        let harness = Harness()
        let collector = FakeCollector()
        let network = ManualNetworkMonitor(.unreachable)
        let client = try harness.quietClient(transport: collector.transport, network: network)
        client.send(type: "pay", prefix: "JZ", meta: ["amount": 3])
        try await client.flush()
        var events = client.engine.events.makeAsyncIterator()

        // When the network comes back as soon as start() returns, and the start delay passes
        client.start()
        network.set(.unmetered)
        await harness.clock.advance(by: .seconds(3))
        let seen = await events.next(until: { $0.finishedSummary?.recordsSent == 1 })
        await client.shutdown()

        // Then the change was seen (not only the start trigger)
        #expect(seen.contains(.triggered(namespace: "JZ", .networkRegained)))
        #expect(collector.storedIDs("JZ").count == 1)
    }

    @Test func uploadReturnsASummaryForEveryConfiguredOrStoredNamespace() async throws {
        // Given a record of namespace XY stored under an earlier configuration that no longer names it
        let harness = Harness()
        let collector = FakeCollector()
        let earlier = try harness.client(defaults: ["hermes": Harness.quietHermes, "XY": Harness.jz], transport: collector.transport)
        earlier.send(type: "pay", prefix: "XY", meta: ["amount": 1])
        await earlier.shutdown()
        let client = try harness.quietClient(transport: collector.transport)
        client.start()
        client.send(type: "pay", prefix: "JZ", meta: ["amount": 2])
        client.send(type: "appLag", meta: ["ms": 300])
        try await client.flush()

        // When upload() is called
        let summaries = await client.upload()
        await client.shutdown()

        // Then it answers for each namespace: delivered, delivered, and kept for lack of rules
        #expect(summaries.mapValues(\.outcome) == ["hermes": .completed, "JZ": .completed, "XY": .uploadDisabled])
        #expect(summaries.mapValues(\.recordsSent) == ["hermes": 1, "JZ": 1, "XY": 0])
        #expect(summaries["JZ"]?.requests == 1 && summaries["XY"]?.requests == 0)
        #expect(try harness.rows("meta").map { $0["namespace"] as String } == ["XY"])
    }

    @Test func noUploadRoundRunsBeforeStart() async throws {
        // Given a client not started, whose crash is realtime and whose every commit reaches flushCount
        let harness = Harness()
        let collector = FakeCollector()
        var eager = NamespaceConfiguration.hermesDefault
        eager.flushCount = 1
        let client = try harness.client(defaults: ["hermes": eager], transport: collector.transport)
        let crash = try #require(client.send(type: "appCrash", meta: ["signal": "SIGABRT"], payload: Data("stack".utf8)).reportID)
        try await client.flush()

        // When upload() is called before start(), then after it
        let before = await client.upload()
        let requestsBefore = collector.requests.count
        client.start()
        let after = await client.upload()
        await client.shutdown()
        var triggers: [UploadEvent] = []
        for await event in client.engine.events where event.finishedSummary == nil { triggers.append(event) }

        // Then nothing ran before start (not the realtime or flushCount trigger either), and
        // the upload after it delivered the crash
        #expect(before.mapValues(\.outcome) == ["hermes": .notStarted])
        #expect(requestsBefore == 0)
        #expect(triggers.isEmpty)
        #expect(after["hermes"]?.recordsSent == 1)
        #expect(collector.storedIDs("hermes") == [crash])
    }

    @Test func uploadRightAfterStartWaitsForHousekeepingAndSendsRowsAnEarlierRunLeftInFlight() async throws {
        // Given rows an earlier run claimed for a batch and never finished (the app died)
        let harness = Harness()
        let collector = FakeCollector()
        let earlier = try harness.quietClient(transport: collector.transport)
        let ids = (0..<4).compactMap { earlier.send(type: "pay", prefix: "JZ", meta: ["i": .int(Int64($0))]).reportID }
        try await earlier.flush()
        let claimed = try await earlier.writer.perform { store in
            try store.claimBatch(.init(namespace: "JZ", table: .meta, maxItems: 100, maxBytes: 1 << 20, excludedTypes: []), batchID: "died").0.rows
                .count
        }
        #expect(claimed == 4)
        await earlier.shutdown()

        // When a new client starts and uploads at once
        let client = try harness.quietClient(transport: collector.transport)
        client.start()
        let summary = await client.upload()["JZ"]
        await client.shutdown()

        // Then the round ran after housekeeping, and sent them all: a claim is not kept across runs
        #expect(summary?.recordsSent == 4)
        #expect(collector.storedIDs("JZ") == Set(ids))
        #expect(try harness.rows("meta").isEmpty)
    }
}
