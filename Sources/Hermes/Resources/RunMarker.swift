import Foundation
import HermesWire

/// What the SDK knows of the running process, kept in `<storage>/run.json` so that the next start
/// can tell how this run ended: cleanly (``HermesClient/shutdown()`` marked it), by a crash (a
/// crash report names its pid), or neither (``AbnormalExit``).
struct RunMarker: Codable, Sendable, Equatable {
    /// The process.
    var pid: Int64
    /// When it started, in milliseconds since 1970.
    var startedAt: Int64
    var appVersion: String
    /// The session in progress at its last update.
    var sessionID: String
    /// When it was last heard of (its last resource sample, or lifecycle change), in ms since 1970.
    var lastSeenAt: Int64
    /// Its resident memory at its last sample, in bytes.
    var residentBytes: Int64?
    /// Whether the app was in the foreground at its last update.
    var foreground: Bool
    /// Whether it shut down cleanly.
    var cleanExit: Bool

    static let fileName = "run.json"

    /// The marker in `storage`, or `nil` when there is none or it cannot be read.
    static func read(in storage: URL) -> RunMarker? {
        guard let data = try? Data(contentsOf: storage.appendingPathComponent(fileName)) else { return nil }
        return try? JSONDecoder().decode(RunMarker.self, from: data)
    }

    /// Replaces the marker in `storage` (atomically: a crash leaves the old one or the new one).
    func write(in storage: URL) {
        guard let data = try? JSONEncoder().encode(self) else { return }
        try? data.write(to: storage.appendingPathComponent(Self.fileName), options: .atomic)
    }
}

/// The rule that infers, at a start, that the previous run was killed: it did not shut down
/// cleanly and left no crash report, as Sentry and Datadog infer watchdog and out-of-memory
/// terminations. Portable: the platform only decides `backgroundEndsAreNormal`.
enum AbnormalExit {
    /// The `appAbnormalExit` fields for the previous run, or `nil` when there is nothing to report:
    /// no marker, a clean exit, a crash report for its pid, this very process (another client
    /// in it), another app version (killed for the update), or an end in the background where
    /// the system ends background apps as a matter of course (`backgroundEndsAreNormal`: Apple's
    /// mobile platforms).
    static func meta(
        previous: RunMarker?, crashedPIDs: Set<Int64>, currentPID: Int64, appVersion: String, now: Int64, backgroundEndsAreNormal: Bool
    ) -> [String: JSONValue]? {
        guard let previous, !previous.cleanExit, previous.pid != currentPID, !crashedPIDs.contains(previous.pid),
            previous.appVersion == appVersion, previous.foreground || !backgroundEndsAreNormal
        else { return nil }
        return [
            "previousPid": .int(previous.pid),
            "previousSessionId": .string(previous.sessionID),
            "foreground": .bool(previous.foreground),
            "lastResidentBytes": previous.residentBytes.map(JSONValue.int) ?? .null,
            "msSinceLastSample": .int(max(0, now - previous.lastSeenAt)),
            "runDurationMs": .int(max(0, previous.lastSeenAt - previous.startedAt)),
        ]
    }

    /// Whether the platform ends background apps as a matter of course (iOS and its kin), so a
    /// run that ended in the background was not killed abnormally.
    static var backgroundEndsAreNormal: Bool {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        true
        #else
        false
        #endif
    }
}
