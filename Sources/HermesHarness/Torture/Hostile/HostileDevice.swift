package import Foundation
package import Hermes

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
