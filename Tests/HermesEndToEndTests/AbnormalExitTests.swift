import Foundation
import GRDB
@testable import Hermes
import HermesCollector
import HermesHarness
import HermesWire
import Testing

/// Abnormal exits for real: a `hermes-crash-probe` child killed with SIGKILL (as the system kills
/// an app for memory) leaves no crash report and no clean shutdown; its next start records
/// `appAbnormalExit`, and a clean run after it none.
struct AbnormalExitEndToEndTests {
    static let probe = Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("hermes-crash-probe")

    /// Runs the probe in `mode` on `storage` on a thread of its own; for `wait`, kills it once it
    /// runs. Returns its pid.
    static func run(_ mode: String, storage: URL, extra: [String] = []) async throws -> Int32 {
        try await onThread {
            let child = try ChildProcess(executable: probe, arguments: ["--storage", storage.path, "--crash", mode] + extra)
            let pid = child.pid
            if mode == "wait" {
                guard child.waitFor("running", occurrences: 1, timeout: .seconds(60)) else { throw RunFailure("the probe did not start") }
                child.sigkill()
            } else {
                let exit = child.wait(timeout: .seconds(60))
                guard exit.status == 0, exit.lines.contains("clean") else { throw RunFailure("the probe ended with \(exit.status)") }
            }
            return pid
        }
    }

    /// The stored `appAbnormalExit` records' meta.
    static func abnormalExits(in storage: URL) throws -> [JSONValue] {
        try records(MonitorType.appAbnormalExit, in: storage)
    }

    /// The meta of the stored records of `type`.
    static func records(_ type: String, in storage: URL) throws -> [JSONValue] {
        let queue = try DatabaseQueue(path: storage.appendingPathComponent(RecordStore.fileName).path)
        defer { try? queue.close() }
        return try queue.read { db in
            try String.fetchAll(db, sql: "SELECT meta FROM meta WHERE monitor_type = ? ORDER BY id", arguments: [type])
        }.map { try JSONValue(parsing: Array($0.utf8)) }
    }

    @Test func aKilledRunIsRecordedAtTheNextStartOnceAndACleanOneIsNot() async throws {
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-abnormal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: storage) }
        // Given a run killed with SIGKILL while in the foreground
        let killed = try await Self.run("wait", storage: storage)
        // When the app starts again and ends cleanly, twice
        _ = try await Self.run("clean", storage: storage)
        _ = try await Self.run("clean", storage: storage)
        // Then one appAbnormalExit names the killed run, in the foreground; the clean run after it left none
        let records = try Self.abnormalExits(in: storage)
        #expect(records.count == 1)
        #expect(records.first?["previousPid"] == .int(Int64(killed)) && records.first?["foreground"] == true)
        #expect(records.first?["msSinceLastSample"]?.intValue.map { $0 >= 0 } == true)
    }

    @Test func aRunThatCrashedIsACrashNotAnAbnormalExit() async throws {
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-abnormal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: storage) }
        _ = try CrashCaptureTests.runProbe(storage: storage, arguments: ["--crash", "null"])
        _ = try await Self.run("clean", storage: storage)
        #expect(try Self.abnormalExits(in: storage).isEmpty)
    }
}
