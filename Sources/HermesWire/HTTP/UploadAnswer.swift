/// The body of the collector's 200 answer to an upload (docs/collector.md), shared by the
/// collector that writes it and the SDK that reads it:
/// `{"stored": n, "duplicates": m, "rejected": [{"index": i, "REPORT_ID": "…", "code": "…", "reason": "…"}]}`.
///
/// Records not listed in `rejected` were stored (or were already stored). ``init(body:)`` reads
/// any body leniently (an empty or unreadable one lists no rejection); ``init(strictBody:)``
/// reads only a collector's answer, the one that can prove an upload was stored
/// (specification §6.4).
///
/// ```swift
/// let answer = UploadAnswer(body: response.body)
/// for rejection in answer.rejected { print(rejection.index, rejection.code) }
/// ```
public struct UploadAnswer: Sendable, Hashable {
    /// A record of the upload the collector refused to store.
    public struct Rejection: Sendable, Hashable {
        /// The record's position in the upload's meta block, from 0.
        public var index: Int
        /// The record's `REPORT_ID`, when the collector could read it.
        public var reportID: String?
        /// Why, to match on: a ``HermesWireError/Code`` name such as `invalidField`, or a code of
        /// the collector's own rules.
        public var code: String
        /// Why, for people; never a field's value.
        public var reason: String

        /// Creates a rejection.
        public init(index: Int, reportID: String?, code: String, reason: String) {
            self.index = index
            self.reportID = reportID
            self.code = code
            self.reason = reason
        }
    }

    /// Records stored for the first time.
    public var stored: Int
    /// Records already stored by an earlier upload (acknowledged, not stored again).
    public var duplicates: Int
    /// Records refused, each with its reason.
    public var rejected: [Rejection]

    /// Creates an answer.
    public init(stored: Int, duplicates: Int, rejected: [Rejection] = []) {
        self.stored = stored
        self.duplicates = duplicates
        self.rejected = rejected
    }

    /// Reads an answer body. An empty or unreadable body, or one without a `rejected` list,
    /// reads as no rejection; entries without an `index`, `code` or `reason` are left out.
    /// - Parameter body: the response body.
    public init(body: [UInt8]) {
        let object = (try? JSONValue(parsing: body))?.objectValue ?? [:]
        stored = object["stored"]?.intValue.flatMap { Int(exactly: $0) } ?? 0
        duplicates = object["duplicates"]?.intValue.flatMap { Int(exactly: $0) } ?? 0
        guard case .array(let entries)? = object["rejected"] else {
            rejected = []
            return
        }
        rejected = entries.compactMap { entry in
            guard let index = entry["index"]?.intValue.flatMap({ Int(exactly: $0) }),
                let code = entry["code"]?.stringValue, let reason = entry["reason"]?.stringValue
            else { return nil }
            return Rejection(index: index, reportID: entry[RecordField.reportID]?.stringValue, code: code, reason: reason)
        }
    }

    /// Reads a body only when it is a collector's answer: a JSON object with integer `stored`
    /// and `duplicates` (not negative) and a `rejected` array whose every entry has an integer
    /// `index`, a `code` and a `reason`. Anything else — an empty body, `OK`, `{}`, a web page —
    /// is `nil`: unlike ``init(body:)``, it proves nothing about what was stored.
    /// - Parameter body: the response body.
    public init?(strictBody body: [UInt8]) {
        guard case .object(let object)? = try? JSONValue(parsing: body),
            case .int(let stored)? = object["stored"], case .int(let duplicates)? = object["duplicates"],
            stored >= 0, duplicates >= 0, let stored = Int(exactly: stored), let duplicates = Int(exactly: duplicates),
            case .array(let entries)? = object["rejected"]
        else { return nil }
        var rejected: [Rejection] = []
        for entry in entries {
            guard case .int(let index)? = entry["index"], let index = Int(exactly: index),
                let code = entry["code"]?.stringValue, let reason = entry["reason"]?.stringValue
            else { return nil }
            rejected.append(Rejection(index: index, reportID: entry[RecordField.reportID]?.stringValue, code: code, reason: reason))
        }
        self.init(stored: stored, duplicates: duplicates, rejected: rejected)
    }

    /// Whether the answer accounts for every record of an upload of `records` records:
    /// `stored + duplicates + rejected.count == records`.
    public func accounts(forRecords records: Int) -> Bool {
        // Counts come from the network: a sum past Int.max accounts for nothing.
        let (counted, overflow) = stored.addingReportingOverflow(duplicates)
        return !overflow && records - rejected.count == counted
    }

    /// The body as JSON; a rejection without a `REPORT_ID` leaves the key out.
    public var json: JSONValue {
        .object([
            "stored": .int(Int64(stored)),
            "duplicates": .int(Int64(duplicates)),
            "rejected": .array(
                rejected.map { rejection in
                    var entry: [String: JSONValue] = [
                        "index": .int(Int64(rejection.index)), "code": .string(rejection.code), "reason": .string(rejection.reason),
                    ]
                    entry[RecordField.reportID] = rejection.reportID.map(JSONValue.string)
                    return .object(entry)
                }),
        ])
    }
}
