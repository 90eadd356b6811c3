extension HermesClient {
    /// Starts the first session (`start()`).
    func beginSession() {
        let id = sessionID
        apply(sessions.step { tracker, now in tracker.start(id: id, now: now) }, reason: .start)
    }

    /// Ends the session in progress (`shutdown()`).
    func endSession() {
        apply(sessions.step { tracker, now in tracker.end(now: now) }, reason: .shutdown)
    }

    /// The app went to the background: the session's background time starts, the periodic
    /// upload timers stop, and what was accepted is made durable and uploaded now, while the
    /// app may still run. On iOS, `AppLifecycleObserver` calls it inside a background task;
    /// other hosts call it from their own lifecycle events.
    /// - Returns: each namespace's upload summary.
    @discardableResult
    public func didEnterBackground() async -> [String: UploadSummary] {
        _ = sessions.step { tracker, now in
            tracker.didEnterBackground(now: now)
            return []
        }
        noteForeground(false)
        engine.pauseTimers()
        try? await flush()
        return await upload()
    }

    /// The app came back to the foreground: after more than
    /// ``Configuration/sessionTimeout`` away the session ends and a new one starts (with their
    /// records); the periodic upload timers start again.
    public func willEnterForeground() {
        apply(sessions.step { tracker, now in tracker.willEnterForeground(now: now, newID: RecordIdentity.newID) }, reason: .timeout)
        noteForeground(true)
        engine.resumeTimers()
    }
}
