import Logging
import HermesWire

/// Holds the client's ``SendProfile``: `send` takes the current snapshot under an uncontended
/// lock (a pointer copy); a change builds a new snapshot and persists the identity and consent.
final class ProfileStore: Sendable {
    private let current: Locked<SendProfile>
    private let base: RecordBuilder
    private let file: IdentityFile
    private let logger: Logger
    /// Orders the file writes, outside the snapshot's lock so that `send` never waits on disk.
    private let saving = Locked<IdentityFile.Stored?>(nil)

    /// Loads the stored identity, or makes a new anonymous one (and stores it).
    /// - Parameters:
    ///   - initialConsent: the consent of an installation that never stored one.
    ///   - sessionID: the first session's id.
    init(base: RecordBuilder, file: IdentityFile, initialConsent: Consent, sessionID: String, logger: Logger) {
        self.base = base
        self.file = file
        self.logger = logger
        let stored = file.load()
        let settings = SendProfile.Settings(
            identity: RecordIdentity(anonymousID: stored?.anonymousID ?? RecordIdentity.newID(), userID: stored?.userID, sessionID: sessionID),
            consent: stored?.consent ?? initialConsent
        )
        current = Locked(SendProfile(settings, base: base))
        if stored == nil { persist() }
    }

    /// The snapshot `send` uses.
    var profile: SendProfile {
        current.withLock { $0 }
    }

    /// Changes the settings and swaps in a new snapshot; stores the identity when its persisted
    /// part changed.
    /// - Returns: the settings before and after.
    @discardableResult
    func update(_ change: (inout SendProfile.Settings) -> Void) -> (old: SendProfile.Settings, new: SendProfile.Settings) {
        let (old, new) = current.withLock { profile in
            let old = profile.settings
            var settings = old
            change(&settings)
            profile = SendProfile(settings, base: base)
            return (old, settings)
        }
        if Self.stored(old) != Self.stored(new) { persist() }
        return (old, new)
    }

    private static func stored(_ settings: SendProfile.Settings) -> IdentityFile.Stored {
        IdentityFile.Stored(anonymousID: settings.identity.anonymousID, userID: settings.identity.userID, consent: settings.consent)
    }

    /// Writes the latest identity and consent, unless they are what was last written.
    private func persist() {
        saving.withLock { saved in
            let latest = Self.stored(self.profile.settings)
            guard saved != latest else { return }
            do {
                try file.save(latest)
                saved = latest
            } catch {
                logger.warning("hermes: cannot persist the identity and consent; they last for this run only", metadata: ["error": "\(error)"])
            }
        }
    }
}
