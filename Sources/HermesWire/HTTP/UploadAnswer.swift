/// The body of the collector's 200 answer to an upload (docs/collector.md), shared by the
/// collector that writes it and the SDK that reads it:
/// `{"stored": n, "duplicates": m, "rejected": [{"index": i, "REPORT_ID": "…", "code": "…", "reason": "…"}]}`.
///
/// Records not listed in `rejected` were stored (or were already stored). An empty or
/// unreadable body — the seed's collector answers 200 with none — means every record was stored.
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
