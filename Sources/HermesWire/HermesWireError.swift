/// The error every HermesWire operation throws: a code to match on and a message for people.
///
/// Match on ``code``; show ``message``. Messages never contain key material, payload bytes or
/// meta values, so an error can be logged as it is.
///
/// ```swift
/// do { _ = try Gzip.decompress(body, limit: 1 << 20) }
/// catch let error where error.code == .outputTooLarge { ... }
/// ```
public struct HermesWireError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as a value that can grow new cases without breaking callers.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case nonFiniteNumber
            case invalidJSON
            case malformedConfiguration
            case compressionFailed
            case decompressionFailed
            case outputTooLarge
            case invalidKey
            case encryptionFailed
            case decryptionFailed
            case authenticationFailed
            case unknownKey
            case emptyBatch
            case invalidMetaLine
            case metaBlockTooLarge
            case tooManyPayloads
            case payloadCountMismatch
            case truncatedPacket
            case inconsistentPacket
            case badMagic
            case unsupportedVersion
            case unsupportedCipher
            case nestingTooDeep
            case invalidRecord
            case missingField
            case invalidField
            case namespaceMismatch
            case packetTooLarge
            case tooManyRecords
            case metaTooLarge
            case invalidText
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        public var description: String { base.rawValue }

        /// A number was NaN or infinite; JSON has no spelling for it.
        public static let nonFiniteNumber = Code(.nonFiniteNumber)
        /// Bytes that should hold JSON do not (syntax, invalid UTF-8, nesting too deep).
        public static let invalidJSON = Code(.invalidJSON)
        /// A configuration document is not valid JSON or a field has the wrong type.
        public static let malformedConfiguration = Code(.malformedConfiguration)
        /// zlib could not compress the input.
        public static let compressionFailed = Code(.compressionFailed)
        /// The input is not a complete, valid gzip stream.
        public static let decompressionFailed = Code(.decompressionFailed)
        /// Decompressing would exceed the caller's size limit.
        public static let outputTooLarge = Code(.outputTooLarge)
        /// A key, IV or public key has the wrong size or form.
        public static let invalidKey = Code(.invalidKey)
        /// The cipher failed to seal a block.
        public static let encryptionFailed = Code(.encryptionFailed)
        /// A block could not be decrypted (wrong key, bad padding, wrong length).
        public static let decryptionFailed = Code(.decryptionFailed)
        /// An authenticated block or its header was altered, or the key is wrong.
        public static let authenticationFailed = Code(.authenticationFailed)
        /// No key is known for the packet's cipher and key id.
        public static let unknownKey = Code(.unknownKey)
        /// A packet must carry at least one record.
        public static let emptyBatch = Code(.emptyBatch)
        /// A meta line is empty or contains a newline byte.
        public static let invalidMetaLine = Code(.invalidMetaLine)
        /// v1: the sealed meta block does not fit the 16-bit length field (64 KiB).
        public static let metaBlockTooLarge = Code(.metaBlockTooLarge)
        /// The packet format cannot count this many payloads (v1: 255, v2: 65,535).
        public static let tooManyPayloads = Code(.tooManyPayloads)
        /// A payload packet needs exactly one payload slot per meta line.
        public static let payloadCountMismatch = Code(.payloadCountMismatch)
        /// The packet ends before its header or blocks do.
        public static let truncatedPacket = Code(.truncatedPacket)
        /// The header's lengths do not add up to the packet's size, or a reserved field is set.
        public static let inconsistentPacket = Code(.inconsistentPacket)
        /// A v2 packet does not start with the magic bytes `HERM`.
        public static let badMagic = Code(.badMagic)
        /// The packet's version is not one this build reads.
        public static let unsupportedVersion = Code(.unsupportedVersion)
        /// The cipher id is unknown, or cannot be used with this packet version.
        public static let unsupportedCipher = Code(.unsupportedCipher)
        /// A value is nested deeper than a JSON reader accepts (64 levels).
        public static let nestingTooDeep = Code(.nestingTooDeep)
        /// A record's meta line is valid JSON but not an object.
        public static let invalidRecord = Code(.invalidRecord)
        /// A record's meta lacks a field the collector checks.
        public static let missingField = Code(.missingField)
        /// A field the collector checks has the wrong type or an empty value.
        public static let invalidField = Code(.invalidField)
        /// A record's `NAMESPACE` is not the namespace of its upload.
        public static let namespaceMismatch = Code(.namespaceMismatch)
        /// A packet's blocks together decompress past the limit (``PacketLimits/packetBytes``);
        /// decompression stopped there.
        public static let packetTooLarge = Code(.packetTooLarge)
        /// A packet carries more records or payload slots than its namespace allows
        /// (``PacketLimits/records``), told from its header before anything is opened.
        public static let tooManyRecords = Code(.tooManyRecords)
        /// A record's meta line is longer than its namespace allows (`maxMetaKByte`).
        public static let metaTooLarge = Code(.metaTooLarge)
        /// A checked text field holds a NUL character or is not valid UTF-8.
        public static let invalidText = Code(.invalidText)
    }

    /// What went wrong, to match on.
    public var code: Code
    /// What happened and what to do, without secrets or record contents.
    public var message: String

    /// Creates an error.
    /// - Parameters:
    ///   - code: what went wrong.
    ///   - message: what happened and what to do.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "HermesWireError.\(code): \(message)" }
}
