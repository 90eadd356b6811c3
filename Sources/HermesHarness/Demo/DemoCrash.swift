package import Foundation
package import Hermes
package import HermesCollector
package import HermesWire
package import Logging

/// The crash part of `hermes demo`: the simulated app runs as a child process
/// (`hermes-crash-probe`, beside `hermes`) and really crashes; started again on the same
/// storage, it reports the crash as an `appCrash` record with its symbolicated stack.
package enum DemoCrash {
    /// A crash the collector holds: its signal and stack, as stored.
    package struct Captured: Codable, Equatable {
        package var signal: String
        package var stack: String
    }

    /// How the child crashes: indexing past an array's end.
    package static let way = "index"

    /// Runs the crashing child, restarts the app on its storage, and uploads the crash.
    /// - Parameters:
    ///   - storage: the collector's store, to read the crash back (`nil`: a remote collector).
    /// - Returns: the signal the child died of and the crashes read back from `storage`.
    package static func run(
        configURL: URL, credentials: HermesClient.Credentials, storage: SQLiteCollectorStorage?, logger: Logger
    ) async throws -> (signal: Int32, captured: [Captured]) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-demo-crash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let executable = try ChildProcess.hermesExecutable().deletingLastPathComponent().appendingPathComponent("hermes-crash-probe")
        let (signal, pid) = try await onThread {
            try runProbe(executable: executable, storage: directory, arguments: ["--crash", way])
        }
        guard signal != 0 else { throw RunFailure("the crashing child exited instead of crashing") }

        let client = try HermesClient(
            configuration: .init(
                storageDirectory: directory, app: .init(name: "CrashProbe", version: "1.0.0", build: "1"),
                configURL: configURL, credentials: credentials, uploadStartDelay: .seconds(3_600), requestTimeout: .seconds(10)
            ),
            logger: logger
        )
        client.start()
        await client.crashReportingPass().value
        try await client.flush()
        await client.upload()
        await client.shutdown()

        guard let storage else { return (signal, []) }
        let events = try await storage.events(
            EventQuery(namespace: ConfigurationDocument.hermesNamespace, monitorType: MonitorType.appCrash, limit: EventQuery.maximumLimit))
        let captured = events.filter { $0.meta["crashPid"]?.intValue == Int64(pid) }.map { event in
            Captured(signal: event.meta["signal"]?.stringValue ?? "?", stack: String(decoding: event.payload ?? [], as: UTF8.self))
        }
        return (signal, captured)
    }

    /// Runs `hermes-crash-probe` on `storage` and waits for it (a minute at most).
    /// Blocking: call it on a thread of its own.
    /// - Returns: the signal it died of (0 if it exited) and its process id.
    package static func runProbe(executable: URL, storage: URL, arguments: [String]) throws -> (signal: Int32, pid: Int32) {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--storage", storage.path] + arguments
        // The Swift runtime's own backtrace printer would run after Hermes' handler: not wanted here.
        process.environment = ProcessInfo.processInfo.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        if ended.wait(timeout: .now() + 60) == .timedOut {
            process.terminate()
            throw RunFailure("the crash probe did not end within 60 s")
        }
        return (process.terminationReason == .uncaughtSignal ? process.terminationStatus : 0, process.processIdentifier)
    }
}

extension DemoCrash {
    /// The demo's closing lines about the crash: the signal, then each captured stack.
    package static func text(signal: Int32, captured: [Captured], checked: Bool) -> String {
        var lines = ["crash: the app ran again as a child process and died of \(CrashReport.signalName(signal)); restarted, it reported the crash"]
        if !checked {
            lines.append("  (uploaded; the stack is read back only from the embedded collector)")
        } else if captured.isEmpty {
            lines.append("  the collector holds NO captured crash")
        }
        for crash in captured {
            lines.append("captured crash at the collector (\(crash.signal)):")
            lines += crash.stack.split(separator: "\n").prefix(12).map { "  " + $0 }
        }
        return lines.joined(separator: "\n")
    }
}
