import HermesWire
import Testing

struct RecordCheckTests {
    static let valid: [String: JSONValue] = [
        "REPORT_ID": "r1", "NAMESPACE": "JZ", "MONITOR_TYPE": "JZ-pay", "IS_BIZ": true, "CREATE_TIME": 1_763_000_000_000, "amount": 3,
    ]

    static func line(_ object: [String: JSONValue]) throws -> [UInt8] {
        try JSONValue.object(object).jsonBytes()
    }

    @Test func aValidRecordGivesItsCheckedFields() throws {
        guard case .valid(let fields, let meta) = RecordCheck.check(metaLine: try Self.line(Self.valid), namespace: "JZ") else {
            Issue.record("expected a valid record")
            return
        }
        #expect(fields == RecordCheck.Fields(reportID: "r1", namespace: "JZ", monitorType: "JZ-pay", isBusiness: true, createTime: 1_763_000_000_000))
        #expect(meta["amount"] == 3)
    }

    /// Each way a line can fail, with the code and the exact reason, and the REPORT_ID when readable.
    static let failures: [(name: String, change: [String: JSONValue?], code: HermesWireError.Code, reason: String, reportID: String?)] = [
        ("REPORT_ID missing", ["REPORT_ID": nil], .missingField, "REPORT_ID is missing", nil),
        ("REPORT_ID empty", ["REPORT_ID": ""], .invalidField, "REPORT_ID is empty", nil),
        ("REPORT_ID a number", ["REPORT_ID": 7], .invalidField, "REPORT_ID must be a string", nil),
        ("NAMESPACE other", ["NAMESPACE": "KX"], .namespaceMismatch, "NAMESPACE differs from the X-Hermes-Namespace header", "r1"),
        ("MONITOR_TYPE empty", ["MONITOR_TYPE": ""], .invalidField, "MONITOR_TYPE is empty", "r1"),
        ("IS_BIZ a string", ["IS_BIZ": "true"], .invalidField, "IS_BIZ must be true or false", "r1"),
        ("CREATE_TIME a string", ["CREATE_TIME": "soon"], .invalidField, "CREATE_TIME must be an integer", "r1"),
        ("CREATE_TIME a fraction", ["CREATE_TIME": 1.5], .invalidField, "CREATE_TIME must be an integer", "r1"),
        ("CREATE_TIME missing", ["CREATE_TIME": nil], .missingField, "CREATE_TIME is missing", "r1"),
    ]

    @Test(arguments: failures.indices)
    func eachCheckedFieldRejectsWithItsCodeAndReason(index: Int) throws {
        let failure = Self.failures[index]
        var object = Self.valid
        for (key, value) in failure.change { object[key] = value }
        guard case .rejected(let reportID, let error) = RecordCheck.check(metaLine: try Self.line(object), namespace: "JZ") else {
            Issue.record("\(failure.name): expected a rejection")
            return
        }
        #expect(error.code == failure.code, "\(failure.name)")
        #expect(error.message == failure.reason, "\(failure.name)")
        #expect(reportID == failure.reportID, "\(failure.name)")
    }

    @Test func aLineThatIsNotAnObjectIsRejected() {
        guard case .rejected(nil, let notJSON) = RecordCheck.check(metaLine: Array(#"{"REPORT_ID":"#.utf8), namespace: "JZ"),
              case .rejected(nil, let notObject) = RecordCheck.check(metaLine: Array("[1,2]".utf8), namespace: "JZ")
        else {
            Issue.record("expected two rejections without a REPORT_ID")
            return
        }
        #expect(notJSON.code == .invalidJSON)
        #expect(notObject.code == .invalidRecord)
        #expect(notObject.message == "the meta line is not a JSON object")
    }
}
