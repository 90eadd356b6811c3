import Foundation
@testable import Hermes
import HermesWire
import Testing

/// `deleteLocalData()`: no row, no journal copy and no cached configuration stays.
struct LocalDataErasureTests {
    @Test func deleteLocalDataLeavesNoRowNoJournalCopyAndNoCachedConfiguration() async throws {
        // Given a cached configuration and records stored by a running client
        let harness = Harness()
        let cache = ConfigurationCache(storageDirectory: harness.directory, appVersion: "1.2.0")
        try cache.save(ConfigurationDocument(revision: 3, namespaces: ["JZ": Harness.jz]), etag: "\"3\"")
        let client = try harness.quietClient(transport: harness.transport)
        client.start()
        let marker = "erase-me-\(UUID().uuidString)"
        for index in 0..<20 {
            client.send(type: "pay", prefix: "JZ", meta: ["who": .string(marker), "i": .int(Int64(index))])
        }
        client.send(type: "appCrash", meta: ["who": .string(marker)], payload: Data(marker.utf8))
        try await client.flush()
        #expect(try harness.rows("meta").count == 20 && harness.rows("payload").count == 1)

        // When the user asks for erasure
        try await client.deleteLocalData()

        // Then nothing of the records is left on disk, and the loss is counted
        #expect(try harness.rows("meta").isEmpty && harness.rows("payload").isEmpty)
        #expect(cache.load() == nil)
        #expect(!FileManager.default.fileExists(atPath: cache.root.path))
        let files = try FileManager.default.subpathsOfDirectory(atPath: harness.directory.path)
        let holding = try files.filter { path in
            let url = harness.directory.appendingPathComponent(path)
            guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { return false }
            return try Data(contentsOf: url).range(of: Data(marker.utf8)) != nil
        }
        #expect(holding.isEmpty, "files still holding the records: \(holding)")
        let losses = client.diagnostics().losses
        #expect(losses["JZ"]?[.erased] == 20 && losses["hermes"]?[.erased] == 1)

        // and the client goes on working
        #expect(client.send(type: "pay", prefix: "JZ", meta: ["i": 99]).isAccepted)
        try await client.flush()
        await client.shutdown()
        #expect(try harness.rows("meta").count == 1)
    }
}
