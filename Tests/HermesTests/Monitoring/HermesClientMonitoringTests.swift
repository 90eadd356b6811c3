import Dispatch
import Foundation
@testable import Hermes
import HermesWire
import Testing

/// What `HermesClient+Monitoring` records in the store: launch, hangs, pending crash reports.
struct HermesClientMonitoringTests {
    @Test func markLaunchedRecordsOneAppBootPerProcess() async throws {
        let harness = Harness()
        let client = try harness.client()

        let first = client.markLaunched()
        let second = client.markLaunched()
        try await client.flush()

        #expect(first?.isAccepted == true)
        #expect(second == nil)
        let boots = try harness.metas("meta").filter { $0[RecordField.monitorType] == .string(MonitorType.appBoot) }
        #expect(boots.count == 1)
        #expect(boots.first?["launchMs"]?.intValue.map { $0 >= 0 } == true)
        await client.shutdown()
    }

    @Test func launchMonitoringOffRecordsNothing() async throws {
        let harness = Harness()
        var configuration = harness.configuration()
        configuration.monitoring.launch = false
        let client = try HermesClient(configuration: configuration)

        #expect(client.markLaunched() == nil)
        await client.shutdown()
    }

    @Test func aHangOfTheWatchedQueueBecomesOneAppLag() async throws {
        // Given a started client watching a serial queue with a 250 ms threshold
        let harness = Harness()
        var configuration = harness.configuration()
        configuration.monitoring.crashes = false
        configuration.monitoring.hangs = true
        configuration.monitoring.hangThreshold = .milliseconds(250)
        configuration.monitoring.watchedQueue = DispatchQueue(label: "hermes.tests.render")
        let client = try HermesClient(configuration: configuration)
        client.start()

        // When the queue is stuck for 2 s (the watchdog pings it every 125 ms meanwhile), then
        // runs again; the stall's last act queues a marker behind the ping that waited
        let queue = configuration.monitoring.watchedQueue
        let (ended, marker) = AsyncStream<Void>.makeStream()
        let release = DispatchSemaphore(value: 0)
        queue.async {
            _ = release.wait(timeout: .now() + .seconds(2))
            queue.async { marker.finish() }
        }
        for await _ in ended {}
        await client.shutdown()
        // (the stall is timed from the first ping sent into it; on a machine loaded by parallel
        // tests the watchdog thread may start or wake late, so up to a second of it may go
        // unseen. A loaded machine may also really keep the queue waiting past the threshold at
        // other times: those shorter hangs are stored too, and not counted here)
        let lags = try harness.metas("meta").filter {
            $0[RecordField.monitorType] == .string(MonitorType.appLag) && ($0["durationMs"]?.intValue ?? 0) >= 1000
        }

        // Then the stall is one appLag with its duration, the threshold and the queue
        #expect(lags.count == 1)
        #expect(lags.first?["thresholdMs"] == .int(250))
        #expect(lags.first?["queue"] == "hermes.tests.render")
    }

    @Test func aReportOfATypeTheServerDoesNotMonitorIsRemovedUnsent() async throws {
        // Given a report an earlier run left, and a configuration without appCrash
        let harness = Harness()
        try Self.leave(
            [
                "1-1.crash": "signal 11\ncode 1\naddress 0x8\nframe 0x10\nend\n", "2-2.crash": "signal 6\ncode -6\nend\n", "3-3.crash": "",
            ], in: harness)
        var hermes = NamespaceConfiguration.hermesDefault
        hermes.monitorList.removeAll { $0.type == MonitorType.appCrash }
        let client = try HermesClient(configuration: harness.configuration(defaults: ["hermes": hermes]))

        // When the pass runs
        await client.crashReportingPass().value
        try await client.flush()

        // Then nothing is stored and every report is gone
        #expect(try harness.rows("payload").isEmpty)
        #expect(CrashCapture.pendingReports(in: harness.directory).isEmpty)
        await client.shutdown()
    }

    @Test func eachPendingReportBecomesOneAppCrashAndAnEmptyOneIsRemoved() async throws {
        let harness = Harness()
        try Self.leave(
            [
                "9-1.crash": "signal 11\ncode 1\naddress 0x8\ntime 1700000000000\npid 9\nthread 9\nframe 0x10\nend\n", "10-2.crash": "",
            ], in: harness)
        let client = try harness.client()

        // Two passes: the second finds nothing left to send
        await client.crashReportingPass().value
        await client.crashReportingPass().value
        try await client.flush()

        let stored = try harness.metas("payload")
        #expect(stored.count == 1)
        #expect(stored.first?["signal"] == "SIGSEGV")
        #expect(stored.first?["faultAddress"] == "0x8")
        #expect(stored.first?["crashTime"] == .int(1_700_000_000_000))
        #expect(stored.first?["reportComplete"] == .bool(true))
        #expect(stored.first?["symbolicated"] == .bool(true))
        #expect(CrashCapture.pendingReports(in: harness.directory).isEmpty)
        await client.shutdown()
    }

    @Test func aReportWhoseSymbolicationARunDidNotSurviveIsSentRaw() async throws {
        // Given a report left renamed mid-symbolication, with its image list
        let harness = Harness()
        let crashes = try Self.leave(
            [
                "5-5.symbolicating": "signal 4\ncode 2\naddress 0x1010\nframe 0x1010\nend\n",
                "5-5.images": "image 0x1000 0x2000 0x1000 /nonexistent/app\n",
            ], in: harness)
        let client = try harness.client()

        await client.crashReportingPass().value
        try await client.flush()

        // Then it is sent once, its frames as raw addresses, and removed with its image list
        let stored = try harness.metas("payload")
        #expect(stored.count == 1)
        #expect(stored.first?["symbolicated"] == .bool(false))
        #expect(try FileManager.default.contentsOfDirectory(atPath: crashes.path).isEmpty)
        await client.shutdown()
    }

    /// Writes `files` (name: text) into the crash folder of `harness`, as an earlier run would.
    @discardableResult
    static func leave(_ files: [String: String], in harness: Harness) throws -> URL {
        let crashes = CrashCapture.directory(in: harness.directory)
        try FileManager.default.createDirectory(at: crashes, withIntermediateDirectories: true)
        for (name, text) in files {
            try Data(text.utf8).write(to: crashes.appendingPathComponent(name))
        }
        return crashes
    }
}
