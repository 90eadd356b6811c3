import HermesCollector
import Testing

/// How an operator names a store in one string.
struct StorageLocationTests {
    @Test func storageIsAPostgresURLOrASQLiteFile() {
        #expect(StorageLocation("postgres://u@h:5432/d") == .postgres(url: "postgres://u@h:5432/d"))
        #expect(StorageLocation("postgresql://h/d") == .postgres(url: "postgresql://h/d"))
        #expect(StorageLocation("sqlite:/var/lib/c.sqlite") == .sqlite(path: "/var/lib/c.sqlite"))
        #expect(StorageLocation("collector.sqlite") == .sqlite(path: "collector.sqlite"))
    }

    @Test func recordSyncKeepsItsSQLiteFileBesideTheCollectors() {
        #expect(StorageLocation.syncPath(besides: "/var/lib/collector.sqlite") == "/var/lib/collector-sync.sqlite")
        #expect(StorageLocation.syncPath(besides: "data") == "data-sync")
    }
}
