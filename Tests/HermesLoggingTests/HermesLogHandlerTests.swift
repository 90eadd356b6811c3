import Foundation
import GRDB
import Hermes
@testable import HermesLogging
import HermesWire
import Logging
import Testing

@Suite(.timeLimit(.minutes(1)))
struct HermesLogHandlerTests {
    private struct Port: CustomStringConvertible, Sendable {
        var description: String { "port 8080" }
    }

    private struct Failure: Error, CustomStringConvertible {
        var description: String { "disk full" }
    }

    @Test func anEntryBecomesARecordOfItsLevelWithItsFieldsInTheMeta() async throws {
        let harness = LogHarness()
        let client = try harness.client()
        let persister = harness.persister(client, LogPersisterTests.manual)
        var logger = harness.logger(persister, label: "app.network")
        logger[metadataKey: "session"] = "s1"

        logger.warning("socket closed", metadata: ["attempt": "3"], source: "Net", file: "Net/Socket.swift", function: "close()", line: 42)
        await persister.save()
        try await client.flush()

        let row = try #require(try harness.rows().first)
        #expect(row["namespace"] as String == "log")
        #expect(row["monitor_type"] as String == "log-warning")
        let meta = try #require(try harness.metas().first)
        #expect(meta["message"] == "socket closed")
        #expect(meta["label"] == "app.network")
        #expect(meta["source"] == "Net")
        #expect(meta["file"] == "Net/Socket.swift")
        #expect(meta["function"] == "close()")
        #expect(meta["line"] == 42)
        #expect(meta["metadata"] == ["session": "s1", "attempt": "3"])
        #expect(meta["timestamp"] == .int(harness.now))
        #expect(meta["IS_BIZ"] == true)
        await client.shutdown()
    }

    @Test func levelsDecideBetweenUploadedLocalAndNotStored() async throws {
        let harness = LogHarness()
        let client = try harness.client()
        let persister = harness.persister(client, LogPersisterTests.manual)
        let logger = Logger(label: "app") { HermesLogHandler(label: $0, persister: persister, logLevel: .trace) }

        for level in Logger.Level.allCases { logger.log(level: level, "\(level)") }
        await persister.save()
        try await client.flush()

        let stored = try harness.rows().map { "\($0["namespace"] as String) \($0["monitor_type"] as String)" }
        #expect(
            stored == [
                "log-local log-local-info", "log-local log-local-notice",
                "log log-warning", "log log-error", "log log-critical",
            ])
        await client.shutdown()
    }

    @Test func theDefaultLogLevelIsThePersistLevel() throws {
        let harness = LogHarness()
        let client = try harness.client()
        let persister = LogPersister(client: client, configuration: .init(persistLevel: .notice))
        #expect(HermesLogHandler(label: "app", persister: persister).logLevel == .notice)
    }

    @Test func handlersHaveValueSemantics() throws {
        let harness = LogHarness()
        let persister = harness.persister(try harness.client(), LogPersisterTests.manual)
        var first = harness.logger(persister)
        first.logLevel = .debug
        first[metadataKey: "only-on"] = "first"

        var second = first
        second.logLevel = .error
        second[metadataKey: "only-on"] = "second"

        #expect(first.logLevel == .debug)
        #expect(second.logLevel == .error)
        #expect(first[metadataKey: "only-on"] == "first")
        #expect(second[metadataKey: "only-on"] == "second")
    }

    @Test func metadataIsFlattenedToJSONAndTheProviderAndErrorAreKept() async throws {
        let harness = LogHarness()
        let client = try harness.client()
        let persister = harness.persister(client, LogPersisterTests.manual)
        let provider = Logger.MetadataProvider { ["trace": "t-1"] }
        let logger = Logger(label: "app") { HermesLogHandler(label: $0, persister: persister, metadataProvider: provider) }

        logger.error(
            "request failed", error: Failure(),
            metadata: [
                "server": .stringConvertible(Port()),
                "tags": ["a", "b"],
                "nested": ["inner": ["deep": "x"]],
            ])
        await persister.save()
        try await client.flush()

        let meta = try #require(try harness.metas().first)
        #expect(
            meta["metadata"] == [
                "trace": "t-1",
                "server": "port 8080",
                "tags": ["a", "b"],
                "nested": ["inner": ["deep": "x"]],
            ])
        #expect(meta["error"] == "disk full")
        await client.shutdown()
    }

    @Test func entriesTheClientRefusesAreCounted() async throws {
        let harness = LogHarness()
        let client = try harness.client()
        let persister = harness.persister(client, LogPersisterTests.manual)

        harness.logger(persister).warning("\(String(repeating: "x", count: 70_000))")  // past maxMetaKByte 64
        await persister.save()

        #expect(persister.rejectedEntries == 1)
        #expect(persister.pendingEntries == 0)
        await client.shutdown()
    }

    @Test func entriesLoggedWhileThePersisterSavesAreIgnored() async throws {
        // What the client logs about a refused record, when its logger writes through the same
        // persister (after LoggingSystem.bootstrap), must not come back into the buffer.
        let harness = LogHarness()
        let (client, persister, logger) = try harness.start(LogPersisterTests.manual)

        LogPersister.$isSaving.withValue(true) { logger.warning("hermes: record rejected") }

        #expect(persister.pendingEntries == 0)
        #expect(persister.droppedEntries == 0)
        await client.shutdown()
    }

    @Test func namespaceDefaultsRegisterAnUploadedAndALocalNamespace() {
        let defaults = HermesLogHandler.namespaceDefaults(namespace: "applog")
        #expect(defaults.keys.sorted() == ["applog", "applog-local"])
        #expect(defaults["applog"]?.isUpload == true)
        #expect(defaults["applog-local"]?.isUpload == false)
        #expect(defaults["applog"]?.monitorList.map(\.type) == ["trace", "debug", "info", "notice", "warning", "error", "critical"])
        #expect(defaults["applog"]?.maxMetaKByte == 64)
    }
}
