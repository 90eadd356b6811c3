/// What went wrong in record sync on a device.
///
/// Match on ``code``; ``message`` says what happened and what to do. Messages never hold
/// attribute values.
public struct SyncError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as a value that can grow new cases without breaking callers.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case storageFailed, invalidChange, recordNotFound, busy, transportFailed, invalidAnswer
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        public var description: String { base.rawValue }

        /// The local database could not be opened, read or written; nothing was half stored.
        public static let storageFailed = Code(.storageFailed)
        /// A local change does not fit the schema (unknown type or attribute, a value of the wrong kind).
        public static let invalidChange = Code(.invalidChange)
        /// The record to update or delete is not in the local data set.
        public static let recordNotFound = Code(.recordNotFound)
        /// A sync is already in flight on this client; one request at a time.
        public static let busy = Code(.busy)
        /// The request could not be sent or the server refused it; nothing was applied, the
        /// change sets stay queued and go again with the next sync.
        public static let transportFailed = Code(.transportFailed)
        /// The server's answer could not be read; nothing was applied.
        public static let invalidAnswer = Code(.invalidAnswer)
    }

    /// What went wrong.
    public var code: Code
    /// What happened and what to do.
    public var message: String
    /// The error that caused it, when there is one.
    public var underlying: (any Error)?

    /// An error.
    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    public var description: String { "SyncError.\(code): \(message)" }
}
