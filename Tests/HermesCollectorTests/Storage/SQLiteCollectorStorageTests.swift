import Foundation
import HermesCollector
import HermesWire
import Testing

struct SQLiteCollectorStorageTests {
    static func record(_ id: String, payload: [UInt8]? = nil) throws -> IngestRecord {
        IngestRecord(
            namespace: "shop", reportID: id, monitorType: "order", createTime: 7,
            meta: try CollectorFixture.metaLine(id, createTime: 7), payload: payload
        )
    }

    @Test func eventsAndConfigurationSurviveReopeningTheFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-collector-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("collector.sqlite").path
        let document = ConfigurationDocument(revision: 3, namespaces: ["shop": NamespaceConfiguration(maxItem: 20)])

        // Given a file store with one batch and a saved configuration
        do {
            let storage = try SQLiteCollectorStorage(path: path)
            let batch = IngestBatch(records: [try Self.record("r1", payload: [9, 8]), try Self.record("r2")], deviceID: "d", batchID: "b", receivedAt: 5)
            #expect(try await storage.store(batch) == StoreOutcome(stored: 2, duplicates: 0))
            try await storage.saveConfiguration(document)
        }
        // When it is opened again
        let reopened = try SQLiteCollectorStorage(path: path)
        // Then both are there, and the stored records still count as duplicates
        #expect(try await reopened.loadConfiguration() == document)
        let events = try await reopened.events(EventQuery())
        #expect(events.map(\.reportID) == ["r1", "r2"])
        #expect(events.map(\.payload) == [[9, 8], nil])
        #expect(events.first?.deviceID == "d")
        #expect(events.first?.batchID == "b")
        let again = IngestBatch(records: [try Self.record("r1")], deviceID: nil, batchID: nil, receivedAt: 6)
        #expect(try await reopened.store(again) == StoreOutcome(stored: 0, duplicates: 1))
    }

    @Test func recordRepeatedWithinOneBatchIsStoredOnce() async throws {
        let storage = try SQLiteCollectorStorage.inMemory()
        let batch = IngestBatch(records: [try Self.record("r1", payload: [1]), try Self.record("r1", payload: [2])], deviceID: nil, batchID: nil, receivedAt: 0)
        #expect(try await storage.store(batch) == StoreOutcome(stored: 1, duplicates: 1))
        #expect(try await storage.events(EventQuery()).map(\.payload) == [[1]])
    }

    @Test func sameReportIDInAnotherNamespaceIsAnotherRecord() async throws {
        let storage = try SQLiteCollectorStorage.inMemory()
        var other = try Self.record("r1")
        other.namespace = "other"
        let batch = IngestBatch(records: [try Self.record("r1"), other], deviceID: nil, batchID: nil, receivedAt: 0)
        #expect(try await storage.store(batch) == StoreOutcome(stored: 2, duplicates: 0))
        #expect(try await storage.count(EventQuery(namespace: "other")) == 1)
    }

    @Test func unopenableFileIsAStorageError() throws {
        #expect {
            try SQLiteCollectorStorage(path: "/nonexistent-directory-\(UUID().uuidString)/collector.sqlite")
        } throws: { error in
            (error as? CollectorError)?.code == .storageFailed
        }
    }
}
