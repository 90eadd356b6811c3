package import HermesCollector
package import HermesSync
package import HermesWire

/// The sync torture's server, in process, behind a fault layer: it can be down (restarting), and
/// it loses answers after the server committed the request, at a given rate.
package final class SyncServerSwitch: Sendable {
    private let state: Locked<(server: SyncServer?, dropRate: Double, random: SplitMix64, dropped: Int)>

    package init(server: SyncServer, dropRate: Double, seed: UInt64) {
        state = Locked((server, dropRate, SplitMix64(seed: seed), 0))
    }

    /// Replaces the server (`nil`: down, every request fails).
    package func set(_ server: SyncServer?) { state.withLock { $0.server = server } }
    /// Sets how often an answer is lost after the commit (0 to 1).
    package func setDropRate(_ rate: Double) { state.withLock { $0.dropRate = rate } }
    /// How many answers were lost.
    package var dropped: Int { state.withLock { $0.dropped } }

    package func answer(_ request: [UInt8], credential: String?, now: Int64) async throws -> [UInt8] {
        guard let server = state.withLock({ $0.server }) else { throw RunFailure("the server is restarting") }
        let answer = try await server.answer(try SyncRequest(jsonBytes: request), credential: credential, now: now)
        let drop = state.withLock { state in
            let drop = Double.random(in: 0..<1, using: &state.random) < state.dropRate
            if drop { state.dropped += 1 }
            return drop
        }
        if drop { throw RunFailure("answer lost after the commit") }
        return try answer.jsonBytes()
    }
}

/// A device's way to the ``SyncServerSwitch``, with its credential and its own offline switch.
package final class FaultySyncTransport: SyncTransport {
    package let server: SyncServerSwitch
    package let credential: String?
    package let now: @Sendable () -> Int64
    private let offline = Locked(false)

    package init(server: SyncServerSwitch, credential: String?, now: @escaping @Sendable () -> Int64) {
        self.server = server
        self.credential = credential
        self.now = now
    }

    package func setOffline(_ value: Bool) { offline.withLock { $0 = value } }

    package func exchange(_ request: [UInt8]) async throws -> [UInt8] {
        if offline.withLock({ $0 }) { throw RunFailure("offline") }
        return try await server.answer(request, credential: credential, now: now())
    }
}
