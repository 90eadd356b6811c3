/// When sessions start and end, as a pure state machine over the client's monotonic time.
///
/// A session starts at `start()`. Going to the background marks the time; coming back after
/// more than ``timeout`` ends the session (its duration runs to when the app left) and starts a
/// new one; coming back sooner continues it. `reset()` ends the session and starts a new one.
struct SessionTracker: Sendable, Equatable {
    /// A session in progress.
    struct Session: Sendable, Equatable {
        var id: String
        var startedAt: Duration
    }

    /// How long the app may stay in the background and keep its session.
    let timeout: Duration
    private(set) var current: Session?
    /// When the app entered the background, while it is there.
    private(set) var backgroundSince: Duration?

    init(timeout: Duration) {
        self.timeout = timeout
    }

    /// Starts session `id` unless one is in progress.
    mutating func start(id: String, now: Duration) -> [SessionTransition] {
        guard current == nil else { return [] }
        current = Session(id: id, startedAt: now)
        backgroundSince = nil
        return [.started(id: id)]
    }

    /// The app went to the background.
    mutating func didEnterBackground(now: Duration) {
        guard current != nil, backgroundSince == nil else { return }
        backgroundSince = now
    }

    /// The app came back: after more than ``timeout`` away, the session ends and one with
    /// `newID()` starts.
    mutating func willEnterForeground(now: Duration, newID: () -> String) -> [SessionTransition] {
        guard let since = backgroundSince else { return [] }
        backgroundSince = nil
        guard let session = current, now - since > timeout else { return [] }
        let id = newID()
        current = Session(id: id, startedAt: now)
        return [.ended(id: session.id, duration: since - session.startedAt), .started(id: id)]
    }

    /// Ends the session in progress, if any, and starts `id` (a reset: a new user).
    mutating func restart(id: String, now: Duration) -> [SessionTransition] {
        let ended = end(now: now)
        current = Session(id: id, startedAt: now)
        return ended + [.started(id: id)]
    }

    /// Ends the session in progress (shutdown); in the background it ended when the app left.
    mutating func end(now: Duration) -> [SessionTransition] {
        guard let session = current else { return [] }
        let endedAt = backgroundSince ?? now
        current = nil
        backgroundSince = nil
        return [.ended(id: session.id, duration: endedAt - session.startedAt)]
    }
}

/// A session starting or ending, for the client to record.
enum SessionTransition: Sendable, Equatable {
    case started(id: String)
    case ended(id: String, duration: Duration)
}
