import Foundation
import HermesCollector
import Testing

/// What only the SQLite store does; the shared contract is in `CollectorStorageContractTests`.
struct SQLiteCollectorStorageTests {
    @Test func unopenableFileIsAStorageError() throws {
        #expect {
            try SQLiteCollectorStorage(path: "/nonexistent-directory-\(UUID().uuidString)/collector.sqlite")
        } throws: { error in
            (error as? CollectorError)?.code == .storageFailed
        }
    }
}
