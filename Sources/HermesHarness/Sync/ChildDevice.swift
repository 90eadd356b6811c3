package import Foundation
package import HermesSync
package import HermesWire

/// A device of the sync torture that runs as its own process (`hermes sync device`) over loopback
/// HTTP, killed with SIGKILL after a random number of syncs and started again on the same
/// database until the deadline. Blocking: runs on a thread of its own.
package struct ChildDevice: Sendable {
    package let index: Int
    package let directory: URL
    package let executable: URL
    package let seed: UInt64
    /// The device's credential.
    package let credential: String

    package var clientID: String { "process-\(index)" }
    package var path: String { directory.appendingPathComponent("\(clientID).sqlite").path }

    /// - Parameters:
    ///   - deadline: when to stop starting it again.
    ///   - port: the server's current port (it changes when the server restarts).
    /// - Returns: how many times it was killed, and how many times its stored revision went backwards.
    package func run(until deadline: ContinuousClock.Instant, port: @Sendable () -> Int) -> (kills: Int, regressions: Int) {
        var random = SplitMix64(seed: seed ^ (0xC0FFEE &+ UInt64(index)))
        var kills = 0
        var regressions = 0
        var revision: Int64 = 0
        for run in 0..<10_000 where ContinuousClock.now < deadline {
            guard
                let child = try? ChildProcess(
                    executable: executable,
                    arguments: [
                        "sync", "device", "--path", path, "--client-id", clientID, "--port", String(port()),
                        "--seed", String(seed &+ UInt64(run) &* 31 &+ UInt64(index)), "--credential", credential,
                    ])
            else { break }
            let remaining = ContinuousClock.now.duration(to: deadline)
            _ = child.waitFor("synced", occurrences: Int.random(in: 1...6, using: &random), timeout: min(remaining, .seconds(10)))
            child.sigkill()
            kills += 1
            if let stored = try? storedRevision() {
                if stored < revision { regressions += 1 }
                revision = stored
            }
        }
        return (kills, regressions)
    }

    private func storedRevision() throws -> Int64 {
        try SyncClient(path: path, clientID: clientID, schema: SyncTortureSchema.schema, transport: NoTransport()).maxRevision()
    }

    private struct NoTransport: SyncTransport {
        func exchange(_ request: [UInt8]) async throws -> [UInt8] { throw RunFailure("no transport") }
    }
}
