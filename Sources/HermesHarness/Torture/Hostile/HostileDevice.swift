package import Foundation
package import Hermes
import HermesWire

/// The device side of ``HostileTorture``: an SDK pointed at a server that answers 200 to
/// everything.
enum HostileDevice {
    /// Sends `records` records, uploads three times to a server answering `200 OK` to every
    /// request, and counts how many left the store.
    /// - Returns: the records deleted although no collector acknowledged them.
    static func deletedWithoutAcknowledgement(records: Int) async throws -> Int {
        try await AnySuccessServer.run { url in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-hostile-device-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let client = try TortureScenario.client(collector: url, key: Hex.randomBytes(16), directory: directory, requestTimeout: .seconds(5))
            client.start()
            for n in 0..<records where !TortureScenario.send(Int64(n), with: client) {
                throw RunFailure("record \(n) was rejected")
            }
            try await client.flush()
            for _ in 0..<3 { await client.upload() }
            await client.shutdown()
            return records - (try TortureScenario.rowsLeft(in: directory))
        }
    }
}

extension HostileDevice {
    /// Appends `records` records to a journal as a killed app leaves them, damages the header of
    /// the segment that holds them, and starts a client on that store.
    /// - Returns: the records that reached the store, and those counted as torn.
    static func damagedJournalHeader(records: Int) async throws -> (stored: Int, torn: Int) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-hostile-journal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let metas = try (0..<records).map { try JSONValue.object(["n": .int(Int64($0))]).jsonBytes() }
        _ = JournalProbe.appendAndAbandon(storageDirectory: directory, namespace: RecordNamespace.monitoring, metas: metas)
        // The segment with frames after its 32-byte header holds the records (spares have none):
        // its magic bytes go.
        let journal = directory.appendingPathComponent("journal")
        let segments = try FileManager.default.contentsOfDirectory(at: journal, includingPropertiesForKeys: nil)
        guard let segment = segments.first(where: { (try? Data(contentsOf: $0).dropFirst(32).prefix(4096).contains { $0 != 0 }) == true }) else {
            throw RunFailure("no journal segment holds the records")
        }
        let handle = try FileHandle(forUpdating: segment)
        try handle.write(contentsOf: Data([0xDE, 0xAD, 0xBE, 0xEF]))
        try handle.close()
        // No collector: the records stay in the store to be counted.
        let client = try TortureScenario.client(
            collector: URL(string: "http://127.0.0.1:9")!, key: Hex.randomBytes(16), directory: directory, requestTimeout: .seconds(1)
        )
        client.start()
        try await client.flush()
        let torn = client.diagnostics().losses.values.reduce(0) { $0 + ($1[.torn] ?? 0) }
        await client.shutdown()
        return (try TortureScenario.rowsLeft(in: directory), torn)
    }
}
