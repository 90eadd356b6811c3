import Foundation
@testable import Hermes
import HermesHarness
import HermesCollector
import HermesWire
import Testing

/// Crash capture for real: `hermes-crash-probe` child processes crash, the next start turns
/// their reports into `appCrash` records, and the collector holds them.
struct CrashCaptureTests {
    /// What the probe does, the function it crashes in, the signals it may die of (Swift traps
    /// are SIGILL on x86-64 and SIGTRAP on arm64).
    struct Crash: Sendable {
        var way: String
        var function: String
        var signals: Set<Int32>
    }

    static let traps: Set<Int32> = [SIGILL, SIGTRAP]
    static let crashes = [
        Crash(way: "nil", function: "crashProbeForceUnwrapsNil", signals: traps),
        Crash(way: "index", function: "crashProbeIndexesPastTheEnd", signals: traps),
        Crash(way: "null", function: "crashProbeWritesThroughNull", signals: [SIGSEGV]),
        Crash(way: "fatal", function: "crashProbeCallsFatalError", signals: traps),
    ]

    @Test func eachRealCrashArrivesAtTheCollectorOnceWithItsFunction() async throws {
        let loopback = try Loopback()
        let storage = loopback.directory.appendingPathComponent("app")

        // Given four runs of the app that each crash
        var signals: [Int32] = []
        for crash in Self.crashes {
            let signal = try Self.runProbe(storage: storage, arguments: ["--crash", crash.way])
            #expect(crash.signals.contains(signal), "\(crash.way) died of signal \(signal)")
            signals.append(signal)
        }

        // When the app starts again and uploads
        let events = try await Self.restartAndCollect(loopback)

        // Then the collector holds one appCrash per crash, each naming its function
        #expect(events.count == Self.crashes.count)
        for (crash, signal) in zip(Self.crashes, signals) {
            let matching = events.filter { String(decoding: $0.payload ?? [], as: UTF8.self).contains(crash.function) }
            #expect(matching.count == 1, "\(crash.function) in \(events.map { String(decoding: $0.payload ?? [], as: UTF8.self) })")
            #expect(matching.first?.meta["signal"]?.stringValue == CrashReport.signalName(signal))
            #expect(matching.first?.meta["reportComplete"] == .bool(true))
        }
        #expect(CrashCapture.pendingReports(in: storage).isEmpty)
    }

    @Test func aCrashOnAThreadHermesDoesNotKnowNamesItsFunction() async throws {
        let loopback = try Loopback()
        let storage = loopback.directory.appendingPathComponent("app")

        let signal = try Self.runProbe(storage: storage, arguments: ["--crash", "thread"])

        #expect(Self.traps.contains(signal))
        let events = try await Self.restartAndCollect(loopback)
        #expect(events.count == 1)
        let stack = String(decoding: events.first?.payload ?? [], as: UTF8.self)
        #expect(stack.contains("crashProbeForceUnwrapsNilOnAThread"), "\(stack)")
    }

    @Test func aHandlerInstalledBeforeHermesIsStillCalled() async throws {
        let loopback = try Loopback()
        let storage = loopback.directory.appendingPathComponent("app")
        let marker = loopback.directory.appendingPathComponent("marker")

        let signal = try Self.runProbe(storage: storage, arguments: ["--crash", "null", "--chain", marker.path])

        #expect(signal == SIGSEGV)
        #expect(try String(contentsOf: marker, encoding: .utf8) == "chained \(SIGSEGV)\n")
        let events = try await Self.restartAndCollect(loopback)
        #expect(events.count == 1)
        let stack = String(decoding: events.first?.payload ?? [], as: UTF8.self)
        #expect(stack.contains("crashProbeWritesThroughNull"), "\(stack)")
    }

    @Test func aCrashInsideTheHandlerEndsTheProcessWithAPartialReport() async throws {
        let loopback = try Loopback()
        let storage = loopback.directory.appendingPathComponent("app")

        // The handler faults once while writing: the process must die, not loop
        let signal = try Self.runProbe(storage: storage, arguments: ["--crash", "fatal", "--fault-in-handler"])

        #expect(signal == SIGSEGV)
        let events = try await Self.restartAndCollect(loopback)
        #expect(events.count == 1)
        #expect(events.first?.meta["reportComplete"] == .bool(false))
        #expect(events.first?.meta["frameCount"] == .int(0))
    }

    /// Runs the probe (built beside the test bundle) on `storage`; returns the signal it died of.
    static func runProbe(storage: URL, arguments: [String]) throws -> Int32 {
        let executable = Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("hermes-crash-probe")
        return try DemoCrash.runProbe(executable: executable, storage: storage, arguments: arguments).signal
    }

    /// Starts a collector and the app again on its storage, waits for the crash pass, uploads,
    /// and returns the appCrash records the collector stored.
    static func restartAndCollect(_ loopback: Loopback) async throws -> [StoredEvent] {
        let server = try await loopback.startCollector()
        let client = try loopback.client(port: server.port)
        client.start()
        await client.crashReportingPass().value
        try await client.flush()
        await client.upload()
        await client.shutdown()
        let events = try await loopback.storage.events(EventQuery(namespace: "hermes", monitorType: MonitorType.appCrash))
        try await server.shutdown()
        return Array(events)
    }
}
