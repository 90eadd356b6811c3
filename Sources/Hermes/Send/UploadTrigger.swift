/// A reason to start an upload round in a namespace.
struct UploadTrigger: Sendable, Hashable {
    enum Reason: Sendable, Hashable {
        /// A record of a realtime type was accepted (throttled to one per 2 s per namespace).
        case realtime
    }

    var namespace: String
    var reason: Reason
}
