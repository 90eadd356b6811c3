/// Why Hermes rejected a record or an operation.
///
/// Match on ``code``; show ``message``. Messages never contain meta values or payload bytes.
///
/// ```swift
/// if case .rejected(let error) = client.send(type: "pay", prefix: "JZ", meta: meta),
///    error.code == .namespaceNotConfigured { ... }
/// ```
public struct HermesError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as a value that can grow new cases without breaking callers.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case emptyType, emptyMeta, emptyPrefix, invalidMeta, invalidText
            case namespaceNotConfigured, notGathering, typeNotMonitored, sampledOut
            case metaTooLarge, payloadTooLarge
            case bufferFull, shutDown, storeUnavailable, invalidConfiguration
            case consentDenied, droppedByHook
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        public var description: String { base.rawValue }

        /// `type` is empty.
        public static let emptyType = Code(.emptyType)
        /// `meta` is empty.
        public static let emptyMeta = Code(.emptyMeta)
        /// A business call's `prefix` is empty.
        public static let emptyPrefix = Code(.emptyPrefix)
        /// `meta` cannot be written as JSON (NaN or an infinity, or an `Encodable` that is not a JSON object).
        public static let invalidMeta = Code(.invalidMeta)
        /// `type` or `prefix` holds a NUL character, which no collector stores (`CheckedText`).
        public static let invalidText = Code(.invalidText)
        /// The namespace has no server, cached or registered configuration.
        public static let namespaceNotConfigured = Code(.namespaceNotConfigured)
        /// The namespace's `isGather` is off.
        public static let notGathering = Code(.notGathering)
        /// The type is not in the namespace's `monitorList`.
        public static let typeNotMonitored = Code(.typeNotMonitored)
        /// The record was not kept by the type's `sampleRate`.
        public static let sampledOut = Code(.sampledOut)
        /// The encoded meta is larger than `maxMetaKByte`, or (a record without payload) than `maxBodyMByte`.
        public static let metaTooLarge = Code(.metaTooLarge)
        /// The record with its payload (meta bytes plus payload bytes, as stored) is larger than `maxBodyMByte`.
        public static let payloadTooLarge = Code(.payloadTooLarge)
        /// The store cannot be written and the memory buffer is full.
        public static let bufferFull = Code(.bufferFull)
        /// The client was shut down.
        public static let shutDown = Code(.shutDown)
        /// The store could not be written; the records wait in memory and are retried.
        public static let storeUnavailable = Code(.storeUnavailable)
        /// The client's configuration is invalid.
        public static let invalidConfiguration = Code(.invalidConfiguration)
        /// The user denied consent (``Consent/denied``): nothing is stored. Logged once, when
        /// consent changes, not on each `send`.
        public static let consentDenied = Code(.consentDenied)
        /// A record hook dropped the record (see ``HermesClient/addRecordHook(namespace:_:)``).
        public static let droppedByHook = Code(.droppedByHook)
    }

    /// What went wrong, to match on.
    public var code: Code
    /// What happened and what to do.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "HermesError.\(code): \(message)" }
}
