/// The checks a record's meta passes before the collector stores it (docs/collector.md),
/// defined once for both sides.
///
/// The collector runs ``check(metaLine:namespace:)`` on every meta line of an upload and rejects
/// the records that fail, one by one. The SDK never lets a caller write the ``fields`` it checks:
/// ``RecordMeta/merge(user:common:type:)`` and the SDK's meta encoder always take them from
/// Hermes, even for `appCrash`, so every record `send` accepts passes.
///
/// ```swift
/// switch RecordCheck.check(metaLine: line, namespace: "JZ") {
/// case .valid(let fields, _): store(fields.reportID, line)
/// case .rejected(let reportID, let error): reject(reportID, error.code)
/// }
/// ```
public enum RecordCheck: Sendable {
    /// What a checked field must hold.
    public enum Requirement: Sendable, Hashable {
        /// A string with at least one character.
        case nonEmptyString
        /// A string equal to the namespace of the upload.
        case uploadNamespace
        /// `true` or `false`.
        case boolean
        /// An integer (a JSON number without a fraction).
        case integer
    }

    /// The fields the collector checks, in the order it checks them, with what each must hold.
    public static let fields: [(name: String, requirement: Requirement)] = [
        (RecordField.reportID, .nonEmptyString),
        (RecordField.namespace, .uploadNamespace),
        (RecordField.monitorType, .nonEmptyString),
        (RecordField.isBusiness, .boolean),
        (RecordField.createTime, .integer),
    ]

    /// The names of ``fields``: a caller's meta never sets them.
    public static let checkedFields: Set<String> = Set(fields.map(\.name))

    private static let fieldNames = JSONMemberNames(fields.map(\.name))

    /// The top-level members a check builds beside the checked ``fields``: chosen once, then
    /// given to every check (``check(metaLine:namespace:keeping:)``).
    public struct KeptMembers: Sendable {
        fileprivate let names: JSONMemberNames

        /// The checked fields and `members`.
        public init(alsoKeeping members: [String]) {
            names = JSONMemberNames(RecordCheck.fieldNames.names + members)
        }
    }

    /// The checked fields of a valid record.
    public struct Fields: Sendable, Hashable {
        /// `REPORT_ID`.
        public var reportID: String
        /// `NAMESPACE`, equal to the upload's namespace.
        public var namespace: String
        /// `MONITOR_TYPE`.
        public var monitorType: String
        /// `IS_BIZ`.
        public var isBusiness: Bool
        /// `CREATE_TIME`, milliseconds since 1970.
        public var createTime: Int64

        /// Creates the fields of a valid record.
        public init(reportID: String, namespace: String, monitorType: String, isBusiness: Bool, createTime: Int64) {
            self.reportID = reportID
            self.namespace = namespace
            self.monitorType = monitorType
            self.isBusiness = isBusiness
            self.createTime = createTime
        }
    }

    /// What checking one record found.
    public enum Outcome: Sendable {
        /// The record may be stored; `meta` is the parsed line.
        case valid(Fields, meta: [String: JSONValue])
        /// The record must not be stored: why, and its `REPORT_ID` when it could be read.
        case rejected(reportID: String?, HermesWireError)
    }

    /// Parses and checks one meta line of an upload to `namespace`.
    /// - Parameters:
    ///   - metaLine: the compact JSON object.
    ///   - namespace: the upload's `X-Hermes-Namespace`.
    ///   - keepingMeta: whether `.valid` carries the whole parsed line. With `false` the line is
    ///     still checked in full (valid JSON, an object), but only the checked ``fields`` are
    ///     built and carried: what a collector needs to store the line as received, at a fraction
    ///     of the cost.
    /// - Returns: the checked fields, or the rejection with code ``HermesWireError/Code/invalidJSON``,
    ///   ``HermesWireError/Code/invalidRecord``, ``HermesWireError/Code/missingField``,
    ///   ``HermesWireError/Code/invalidField``, ``HermesWireError/Code/invalidText`` (a NUL, see
    ///   ``CheckedText``) or ``HermesWireError/Code/namespaceMismatch``.
    ///   Messages name fields, never their values.
    public static func check(metaLine: [UInt8], namespace: String, keepingMeta: Bool = true) -> Outcome {
        check(metaLine: metaLine, namespace: namespace, keepingMembers: keepingMeta ? nil : fieldNames)
    }

    /// Parses and checks one meta line of an upload to `namespace`, building only the checked
    /// ``fields`` and the other `members`: what a collector reads from a line it stores as
    /// received.
    public static func check(metaLine: [UInt8], namespace: String, keeping members: KeptMembers) -> Outcome {
        check(metaLine: metaLine, namespace: namespace, keepingMembers: members.names)
    }

    private static func check(metaLine: [UInt8], namespace: String, keepingMembers: JSONMemberNames?) -> Outcome {
        let value: JSONValue
        do {
            value = try JSONParser.parse(metaLine, onlyMembers: keepingMembers)
        } catch {
            return .rejected(reportID: nil, HermesWireError(.invalidJSON, "the meta line is not valid JSON: \(error.message)"))
        }
        guard let object = value.objectValue else {
            return .rejected(reportID: nil, HermesWireError(.invalidRecord, "the meta line is not a JSON object"))
        }
        let reportID = object[RecordField.reportID]?.stringValue
        for (name, requirement) in fields {
            if let error = problem(object[name], name: name, requirement: requirement, namespace: namespace) {
                let readable = reportID.flatMap { $0.isEmpty || CheckedText.problem($0, name: "") != nil ? nil : $0 }
                return .rejected(reportID: readable, error)
            }
        }
        // Every field was checked above; the reads below cannot fail.
        let fields = Fields(
            reportID: reportID ?? "", namespace: namespace,
            monitorType: object[RecordField.monitorType]?.stringValue ?? "",
            isBusiness: object[RecordField.isBusiness]?.boolValue ?? false,
            createTime: object[RecordField.createTime]?.intValue ?? 0
        )
        return .valid(fields, meta: object)
    }

    private static func problem(_ value: JSONValue?, name: String, requirement: Requirement, namespace: String) -> HermesWireError? {
        guard let value else { return HermesWireError(.missingField, "\(name) is missing") }
        switch requirement {
        case .nonEmptyString:
            guard let string = value.stringValue else { return HermesWireError(.invalidField, "\(name) must be a string") }
            guard !string.isEmpty else { return HermesWireError(.invalidField, "\(name) is empty") }
            if let problem = CheckedText.problem(string, name: name) { return problem }
        case .uploadNamespace:
            guard let string = value.stringValue else { return HermesWireError(.invalidField, "\(name) must be a string") }
            guard string == namespace else {
                return HermesWireError(.namespaceMismatch, "\(name) differs from the \(HermesHeader.namespace) header")
            }
        case .boolean:
            guard value.boolValue != nil else { return HermesWireError(.invalidField, "\(name) must be true or false") }
        case .integer:
            guard value.intValue != nil else { return HermesWireError(.invalidField, "\(name) must be an integer") }
        }
        return nil
    }
}
