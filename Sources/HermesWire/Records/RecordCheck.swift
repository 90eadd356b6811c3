/// The checks a record's meta passes before the collector stores it (docs/collector.md),
/// defined once for both sides.
///
/// The collector runs ``check(metaLine:namespace:keeping:)`` on every meta line of an upload and rejects
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

    /// The places in ``fields`` of the fields a valid record's ``Fields`` are read from.
    private enum Place {
        static let reportID = of(RecordField.reportID)
        static let monitorType = of(RecordField.monitorType)
        static let isBusiness = of(RecordField.isBusiness)
        static let createTime = of(RecordField.createTime)

        private static func of(_ name: String) -> Int {
            guard let place = fields.firstIndex(where: { $0.name == name }) else { preconditionFailure("\(name) is not checked") }
            return place
        }
    }

    /// The names of ``fields``: a caller's meta never sets them.
    public static let checkedFields: Set<String> = Set(fields.map(\.name))

    /// The top-level members a check builds beside the checked ``fields``: chosen once, then
    /// given to every check (``check(metaLine:namespace:keeping:)``), whose ``KeptMeta`` holds
    /// them in slots found once (``slot(_:)``), so that reading one hashes nothing.
    public struct KeptMembers: Sendable {
        fileprivate let names: JSONMemberNames

        /// The checked fields and `members`.
        public init(alsoKeeping members: [String]) {
            names = JSONMemberNames(RecordCheck.fields.map(\.name) + members)
        }

        /// Where the member `name` is kept.
        /// - Precondition: `name` is a checked field or one of the members given.
        public func slot(_ name: String) -> KeptMeta.Slot {
            guard let index = names.index(equalTo: name) else { preconditionFailure("\(name) is not kept") }
            return KeptMeta.Slot(index: index)
        }

        /// The kept members of a meta already parsed whole.
        public func kept(from meta: [String: JSONValue]) -> KeptMeta {
            KeptMeta(values: names.names.map { meta[$0] })
        }
    }

    /// The members of a meta line that a check kept (``KeptMembers``), each read by its slot.
    public struct KeptMeta: Sendable {
        /// A kept member's place, from ``KeptMembers/slot(_:)``.
        public struct Slot: Sendable {
            fileprivate let index: Int
        }

        fileprivate let values: [JSONValue?]

        /// The member at `slot`, or `nil` when the line does not have it.
        public subscript(slot: Slot) -> JSONValue? { values[slot.index] }
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

    /// What checking one record found, with the meta as the check built it.
    public enum Outcome<Meta: Sendable>: Sendable {
        /// The record may be stored; `meta` is the parsed line (or its kept members).
        case valid(Fields, meta: Meta)
        /// The record must not be stored: why, and its `REPORT_ID` when it could be read.
        case rejected(reportID: String?, HermesWireError)

        /// The same outcome with the meta of a valid record transformed.
        public func map<Other: Sendable>(_ transform: (Meta) -> Other) -> Outcome<Other> {
            switch self {
            case .valid(let fields, let meta): .valid(fields, meta: transform(meta))
            case .rejected(let reportID, let error): .rejected(reportID: reportID, error)
            }
        }
    }

    /// Parses and checks one meta line of an upload to `namespace`, building all of it.
    /// - Parameters:
    ///   - metaLine: the compact JSON object.
    ///   - namespace: the upload's `X-Hermes-Namespace`.
    /// - Returns: the checked fields and the parsed line, or the rejection with code
    ///   ``HermesWireError/Code/invalidJSON``, ``HermesWireError/Code/invalidRecord``,
    ///   ``HermesWireError/Code/missingField``, ``HermesWireError/Code/invalidField``,
    ///   ``HermesWireError/Code/invalidText`` (a NUL, see ``CheckedText``) or
    ///   ``HermesWireError/Code/namespaceMismatch``. Messages name fields, never their values.
    public static func check(metaLine: [UInt8], namespace: String) -> Outcome<[String: JSONValue]> {
        let object: [String: JSONValue]
        do {
            guard let parsed = try JSONParser.parse(metaLine).objectValue else { return notAnObject() }
            object = parsed
        } catch {
            return notJSON(error)
        }
        return check(namespace: namespace, meta: object) { object[fields[$0].name] }
    }

    /// Parses and checks one meta line of an upload to `namespace`, building only the checked
    /// ``fields`` and the other `members`: what a collector reads from a line it stores as
    /// received. The line is still checked in full (valid JSON, an object).
    /// - Returns: as ``check(metaLine:namespace:)``, with the kept members.
    public static func check(metaLine: [UInt8], namespace: String, keeping members: KeptMembers) -> Outcome<KeptMeta> {
        let kept: KeptMeta
        do {
            guard let values = try JSONParser.parseMembers(metaLine, named: members.names) else { return notAnObject() }
            kept = KeptMeta(values: values)
        } catch {
            return notJSON(error)
        }
        // The checked fields are the first slots, in the order of `fields`.
        return check(namespace: namespace, meta: kept) { kept.values[$0] }
    }

    private static func notJSON<Meta>(_ error: HermesWireError) -> Outcome<Meta> {
        .rejected(reportID: nil, HermesWireError(.invalidJSON, "the meta line is not valid JSON: \(error.message)"))
    }

    private static func notAnObject<Meta>() -> Outcome<Meta> {
        .rejected(reportID: nil, HermesWireError(.invalidRecord, "the meta line is not a JSON object"))
    }

    /// Checks the parsed line's ``fields``, read by their place in ``fields``.
    private static func check<Meta>(namespace: String, meta: Meta, field: (Int) -> JSONValue?) -> Outcome<Meta> {
        let reportID = field(Place.reportID)?.stringValue
        for (index, (name, requirement)) in fields.enumerated() {
            if let error = problem(field(index), name: name, requirement: requirement, namespace: namespace) {
                let readable = reportID.flatMap { $0.isEmpty || CheckedText.problem($0, name: "") != nil ? nil : $0 }
                return .rejected(reportID: readable, error)
            }
        }
        // Every field was checked above; the reads below cannot fail.
        let fields = Fields(
            reportID: reportID ?? "", namespace: namespace,
            monitorType: field(Place.monitorType)?.stringValue ?? "",
            isBusiness: field(Place.isBusiness)?.boolValue ?? false,
            createTime: field(Place.createTime)?.intValue ?? 0
        )
        return .valid(fields, meta: meta)
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
