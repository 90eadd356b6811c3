import Clocks
import Foundation
@testable import Hermes
import HermesTestKit
import HermesWire
import Logging
import Testing

struct ConfigurationServiceTests {
    static let url = URL(string: "http://127.0.0.1:9/v1/config")!

    static func document(revision: Int, jzGathers: Bool = true, timer: Double = 5, hermesClears: Bool = true) -> [UInt8] {
        var jz = Harness.jz
        jz.isGather = jzGathers
        jz.periodicTimerSecond = timer
        var hermes = NamespaceConfiguration.hermesDefault
        hermes.isUpdateClear = hermesClears
        return ConfigurationDocument(revision: revision, namespaces: ["hermes": hermes, "JZ": jz]).jsonBytes()
    }

    /// A service on `harness`'s folder and clock, with JZ's local default, fetching through
    /// `transport` (no fetcher when `configURL` is `nil`), every 60 seconds once started.
    private func service(
        _ harness: Harness, version: String = "1.2.0", configURL: URL? = Self.url,
        transport: (any Transport)? = nil
    ) -> ConfigurationService {
        ConfigurationService(
            defaults: ["JZ": Harness.jz],
            cache: ConfigurationCache(storageDirectory: harness.directory, appVersion: version),
            fetcher: configURL.map {
                ConfigurationFetcher(
                    url: $0, appKey: "test-key", deviceID: "device-7", appVersion: version, transport: transport ?? harness.transport)
            },
            refreshInterval: .seconds(60), clock: MonotonicClock(harness.clock), logger: Logger(label: "hermes.tests")
        )
    }

    /// Collects what the service tells its observer.
    private func observe(_ service: ConfigurationService) -> Locked<[Set<String>]> {
        let told = Locked<[Set<String>]>([])
        service.applyObserver.withLock { $0 = { changed in told.withLock { $0.append(changed) } } }
        return told
    }

    // MARK: - Refresh

    @Test func aServerDocumentIsAppliedCachedAnnouncedAndItsETagSentBack() async throws {
        // Given a server publishing revision 3, with JZ no longer gathering
        let transport = InMemoryTransport { _ in
            TransportResponse(status: 200, headers: ["ETag": "\"3\""], body: ConfigurationServiceTests.document(revision: 3, jzGathers: false))
        }
        let harness = Harness(transport: transport)
        let service = service(harness)
        let told = observe(service)
        #expect(service.configuration(for: "JZ")?.isGather == true)

        // When it is fetched twice
        let first = await service.refresh()
        let second = await service.refresh()

        // Then it is in force at once, announced with the namespace it changed, cached, and its
        // ETag goes back with the app key
        guard case .updated = first, case .updated = second else { Issue.record("expected two updates, got \(first), \(second)"); return }
        #expect(service.revision == 3)
        #expect(service.configuration(for: "JZ")?.isGather == false)
        #expect(told.withLock { $0 } == [["JZ"], []])
        #expect(transport.requests.map { $0.headers["If-None-Match"] } == [nil, "\"3\""])
        #expect(transport.requests.allSatisfy { $0.headers[HermesHeader.appKey] == "test-key" })
        // With the device and the app version, for the collector's overrides
        #expect(transport.requests.allSatisfy { $0.headers[HermesHeader.deviceID] == "device-7" && $0.headers[HermesHeader.appVersion] == "1.2.0" })
        let cached = try Data(contentsOf: harness.directory.appendingPathComponent("config/1.2.0/config.json"))
        #expect(try ConfigurationDocument(jsonBytes: Array(cached)).revision == 3)
        #expect(try String(contentsOf: harness.directory.appendingPathComponent("config/1.2.0/etag"), encoding: .utf8) == "\"3\"")
    }

    @Test func notModifiedServerErrorsAndGarbageKeepTheLastGoodConfigurationUnannounced() async throws {
        // Given a service that applied revision 4 (JZ every 9 seconds)
        let transport = InMemoryTransport { _ in
            TransportResponse(status: 200, headers: ["ETag": "\"4\""], body: ConfigurationServiceTests.document(revision: 4, timer: 9))
        }
        let harness = Harness(transport: transport)
        let service = service(harness)
        await service.refresh()
        let told = observe(service)

        // When the server answers 304, 500, a truncated document, a wrongly typed one, or nothing
        var outcomes: [ConfigurationFetcher.Outcome] = []
        for response in [
            TransportResponse(status: 304),
            TransportResponse(status: 500, body: Array("boom".utf8)),
            TransportResponse(status: 200, body: Array("{\"revision\": 9, \"namespaces\": [".utf8)),
            TransportResponse(status: 200, body: Array(#"{"revision":9,"namespaces":{"JZ":{"maxItem":"many"}}}"#.utf8)),
        ] {
            transport.respond { _ in response }
            outcomes.append(await service.refresh())
        }
        transport.respond { _ in throw URLError(.cannotConnectToHost) }
        outcomes.append(await service.refresh())

        // Then revision 4 stays in force, and the observer hears of none of them
        guard case .notModified = outcomes[0] else { Issue.record("expected 304, got \(outcomes[0])"); return }
        for outcome in outcomes.dropFirst() {
            guard case .failed = outcome else { Issue.record("expected a failure, got \(outcome)"); return }
        }
        #expect(service.revision == 4)
        #expect(service.configuration(for: "JZ")?.periodicTimerSecond == 9)
        #expect(told.withLock { $0 }.isEmpty)
    }

    @Test func theServerBeatsTheCacheWhichBeatsTheDefaults() async throws {
        // Given a document cached by an earlier run, revision 5, with JZ off
        let transport = InMemoryTransport { _ in
            TransportResponse(status: 200, body: ConfigurationServiceTests.document(revision: 5, jzGathers: false))
        }
        let harness = Harness(transport: transport)
        await service(harness).refresh()

        // When a new service starts with the server unreachable, the cache wins over the local default
        transport.respond { _ in throw URLError(.notConnectedToInternet) }
        let second = service(harness)
        let fromCache = (second.revision, second.configuration(for: "JZ")?.isGather)
        await second.refresh()
        #expect(fromCache == (5, false))
        #expect(second.revision == 5)

        // And a server answer wins over the cache
        transport.respond { _ in TransportResponse(status: 200, body: ConfigurationServiceTests.document(revision: 6, jzGathers: true)) }
        await second.refresh()
        #expect(second.configuration(for: "JZ")?.isGather == true)

        // And the cache belongs to its app version; a namespace nothing configures has no configuration
        let upgraded = service(harness, version: "2.0.0")
        #expect(upgraded.revision == 0)
        #expect(upgraded.configuration(for: "JZ") == Harness.jz)
        #expect(upgraded.configuration(for: "hermes") == .hermesDefault)
        #expect(upgraded.configuration(for: "KX") == nil)
        #expect(upgraded.namespaces == ["hermes", "JZ"])
    }

    @Test func outOfRangeValuesAreClamped() async throws {
        let body = Array(#"{"revision":2,"namespaces":{"JZ":{"maxItem":500,"periodicTimerSecond":0.2,"monitorList":[{"type":"pay"}]}}}"#.utf8)
        let harness = Harness(transport: InMemoryTransport { _ in TransportResponse(status: 200, body: body) })
        let service = service(harness)
        await service.refresh()
        #expect(service.configuration(for: "JZ")?.maxItem == 100)
        #expect(service.configuration(for: "JZ")?.periodicTimerSecond == 1)
    }

    @Test func theRefreshRunsAtStartThenAfterEachIntervalUntilShutdown() async throws {
        // Given a started service refreshing every 60 seconds
        let transport = InMemoryTransport { _ in TransportResponse(status: 304) }
        let harness = Harness(transport: transport)
        let service = service(harness)
        var sent = transport.sent.makeAsyncIterator()
        service.start()

        // When the test clock passes two intervals
        for expected in 1...3 {
            _ = await sent.next()  // the test clock moves only when told: each fetch follows one interval
            #expect(transport.requests.count == expected)
            await harness.clock.advance(by: .seconds(60))
        }
        _ = await sent.next()
        await service.shutdown()

        // Then it fetched at 0, 60, 120 and 180 seconds, and nothing after its shutdown
        await harness.clock.advance(by: .seconds(600))
        #expect(transport.requests.count == 4)
    }

    @Test func withoutAConfigurationURLNothingIsFetched() async throws {
        let harness = Harness()
        let service = service(harness, configURL: nil)
        service.start()
        guard case .failed = await service.refresh() else { Issue.record("expected a failure"); return }
        await service.shutdown()
        #expect(harness.transport.requests.isEmpty)
        #expect(service.configuration(for: "hermes") == .hermesDefault)
    }

    // MARK: - The server's word for housekeeping

    @Test func housekeepingDecidesWithThisVersionsCachedDocumentWithoutWaiting() async throws {
        // Given this version's cached document that keeps old rows, and a server that never answers
        let harness = Harness(
            transport: InMemoryTransport { _ in
                TransportResponse(status: 200, body: ConfigurationServiceTests.document(revision: 5, hermesClears: false))
            })
        await service(harness).refresh()
        let service = service(harness, transport: HangingTransport())

        // When housekeeping asks before any fetch
        let (configurations, isServerWord) = await service.housekeepingConfigurations()

        // Then the cached document is the server's word
        #expect(isServerWord && configurations.revision == 5)
        #expect(configurations.configuration(for: "hermes")?.isUpdateClear == false)
    }

    @Test func afterAnUpgradeHousekeepingDecidesWithThePreviousVersionsCachedDocument() async throws {
        // Given documents cached by versions 1.0.0 (older) and 1.2.0 (newer, keeping old rows)
        let harness = Harness(
            transport: InMemoryTransport { _ in
                TransportResponse(status: 200, body: ConfigurationServiceTests.document(revision: 3))
            })
        await service(harness, version: "1.0.0").refresh()
        harness.transport.respond { _ in TransportResponse(status: 200, body: ConfigurationServiceTests.document(revision: 4, hermesClears: false)) }
        await service(harness, version: "1.2.0").refresh()
        let older = harness.directory.appendingPathComponent("config/1.0.0/config.json").path
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000)], ofItemAtPath: older)

        // When version 2.0.0 starts housekeeping before fetching anything
        let upgraded = service(harness, version: "2.0.0", transport: HangingTransport())
        let (configurations, isServerWord) = await upgraded.housekeepingConfigurations()

        // Then it decides with the newest other version's document; its own configuration stays the default
        #expect(isServerWord && configurations.revision == 4)
        #expect(configurations.configuration(for: "hermes")?.isUpdateClear == false)
        #expect(configurations.configuration(for: "JZ") == Harness.jz)
        #expect(upgraded.revision == 0)
    }

    @Test func withNoCachedDocumentHousekeepingWaitsForTheFirstFetch() async throws {
        // Given no document cached by any version, and a server publishing revision 7
        let harness = Harness(
            transport: InMemoryTransport { _ in
                TransportResponse(status: 200, body: ConfigurationServiceTests.document(revision: 7, hermesClears: false))
            })
        let service = service(harness)

        // When housekeeping asks before the service started, then it starts
        let asked = Task { await service.housekeepingConfigurations() }
        service.start()
        let (configurations, isServerWord) = await asked.value
        await service.shutdown()

        // Then it gets the fetched document, not the built-in default
        #expect(isServerWord && configurations.revision == 7)
        #expect(configurations.configuration(for: "hermes")?.isUpdateClear == false)
    }

    @Test func whenTheFirstFetchBringsNothingTheServersWordIsUnknown() async throws {
        let harness = Harness(transport: InMemoryTransport { _ in throw URLError(.notConnectedToInternet) })
        let service = service(harness)
        service.start()
        let (configurations, isServerWord) = await service.housekeepingConfigurations()
        await service.shutdown()
        #expect(!isServerWord && configurations.revision == 0)
    }

    @Test func aShutdownEndsTheWaitForTheFirstFetch() async throws {
        let harness = Harness()
        let service = service(harness, transport: HangingTransport())
        service.start()
        let asked = Task { await service.housekeepingConfigurations() }
        await service.shutdown()
        #expect(await asked.value.isServerWord == false)
    }

    @Test func withoutAConfigurationURLTheLocalConfigurationIsTheWord() async throws {
        let harness = Harness()
        let (configurations, isServerWord) = await service(harness, configURL: nil).housekeepingConfigurations()
        #expect(isServerWord && configurations.configuration(for: "hermes") == .hermesDefault)
    }

    // MARK: - Through the client

    @Test func aNewDocumentAppliesToSendAtOnce() async throws {
        let transport = InMemoryTransport { _ in
            TransportResponse(status: 200, body: ConfigurationServiceTests.document(revision: 3, jzGathers: false))
        }
        let harness = Harness(transport: transport)
        let client = try harness.client(configURL: Self.url)
        let before = client.send(type: "pay", prefix: "JZ", meta: ["a": 1])
        await client.refreshConfiguration()
        let after = client.send(type: "pay", prefix: "JZ", meta: ["a": 1])
        await client.shutdown()
        #expect(before.isAccepted)
        #expect(after.code == .notGathering)
        #expect(client.configurationRevision == 3)
    }

    @Test func aHangingServerDelaysNeitherStartNorSend() async throws {
        let harness = Harness()
        let client = try HermesClient(configuration: harness.configuration(configURL: Self.url, transport: HangingTransport()))
        client.start()
        #expect(client.send(type: "appLag", meta: ["a": 1]).isAccepted)
        try await client.flush()
        await client.shutdown()  // cancels the hanging fetch
        #expect(try harness.rows("meta").count == 1)
    }
}
