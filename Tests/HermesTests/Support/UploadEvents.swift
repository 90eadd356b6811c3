@testable import Hermes

extension AsyncStream<UploadEvent>.Iterator {
    /// Reads events up to and including the first that `stop` accepts, at most `limit` of them
    /// (fewer when the stream ends), so that a test awaiting an effect never loops forever.
    mutating func next(until stop: (UploadEvent) -> Bool, limit: Int = 50) async -> [UploadEvent] {
        var events: [UploadEvent] = []
        while events.count < limit, let event = await next() {
            events.append(event)
            if stop(event) { break }
        }
        return events
    }

    /// Reads events until a round of `namespace` finishes; returns that round's summary and
    /// the triggers of `namespace` seen on the way.
    mutating func nextRound(of namespace: String, limit: Int = 50) async -> (triggers: [UploadTrigger], summary: UploadSummary?) {
        let events = await next(until: { $0.finishedSummary?.namespace == namespace }, limit: limit)
        let triggers = events.compactMap { event -> UploadTrigger? in
            guard case .triggered(namespace, let trigger) = event else { return nil }
            return trigger
        }
        return (triggers, events.last?.finishedSummary.flatMap { $0.namespace == namespace ? $0 : nil })
    }

    /// Reads events until a round of each of `namespaces` has finished, in whatever order the
    /// rounds (which run in parallel) end.
    mutating func nextRounds(of namespaces: Set<String>, limit: Int = 50) async {
        var waiting = namespaces
        _ = await next(
            until: { event in
                if let namespace = event.finishedSummary?.namespace { waiting.remove(namespace) }
                return waiting.isEmpty
            }, limit: limit)
    }
}

extension UploadEvent {
    /// The summary of a finished round, `nil` for a trigger.
    var finishedSummary: UploadSummary? {
        guard case .finished(let summary) = self else { return nil }
        return summary
    }
}
