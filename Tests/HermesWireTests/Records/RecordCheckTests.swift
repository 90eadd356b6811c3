import HermesWire
import Testing

struct RecordCheckTests {
    static let valid: [String: JSONValue] = [
        "REPORT_ID": "r1", "NAMESPACE": "JZ", "MONITOR_TYPE": "JZ-pay", "IS_BIZ": true, "CREATE_TIME": 1_763_000_000_000, "amount": 3,
    ]

    static func line(_ object: [String: JSONValue]) throws -> [UInt8] {
        try JSONValue.object(object).jsonBytes()
    }

    /// The checked fields only: what a collector builds of a line it stores as received.
    static let checkedOnly = RecordCheck.KeptMembers(alsoKeeping: [])

    /// `line` checked building the whole meta (`true`) or only the checked fields (`false`),
    /// the meta left out.
    static func check(_ line: [UInt8], keepingMeta: Bool) -> RecordCheck.Outcome<Void> {
        keepingMeta
            ? RecordCheck.check(metaLine: line, namespace: "JZ").map { _ in () }
            : RecordCheck.check(metaLine: line, namespace: "JZ", keeping: checkedOnly).map { _ in () }
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

    @Test(arguments: failures.indices, [true, false])
    func eachCheckedFieldRejectsWithItsCodeAndReason(index: Int, keepingMeta: Bool) throws {
        let failure = Self.failures[index]
        var object = Self.valid
        for (key, value) in failure.change { object[key] = value }
        guard case .rejected(let reportID, let error) = Self.check(try Self.line(object), keepingMeta: keepingMeta)
        else {
            Issue.record("\(failure.name): expected a rejection")
            return
        }
        #expect(error.code == failure.code, "\(failure.name)")
        #expect(error.message == failure.reason, "\(failure.name)")
        #expect(reportID == failure.reportID, "\(failure.name)")
    }

    @Test(arguments: [true, false])
    func aLineThatIsNotAnObjectIsRejected(keepingMeta: Bool) {
        guard
            case .rejected(nil, let notJSON) = Self.check(Array(#"{"REPORT_ID":"#.utf8), keepingMeta: keepingMeta),
            case .rejected(nil, let notObject) = Self.check(Array("[1,2]".utf8), keepingMeta: keepingMeta)
        else {
            Issue.record("expected two rejections without a REPORT_ID")
            return
        }
        #expect(notJSON.code == .invalidJSON)
        #expect(notObject.code == .invalidRecord)
        #expect(notObject.message == "the meta line is not a JSON object")
    }

    /// Valid JSON with the checked fields, then `extra` as the value of a member nobody checks.
    static func line(withUnchecked extra: String) -> [UInt8] {
        Array(#"{"REPORT_ID":"r1","NAMESPACE":"JZ","MONITOR_TYPE":"JZ-pay","IS_BIZ":true,"CREATE_TIME":5,"x":"#.utf8) + Array(extra.utf8) + [
            UInt8(ascii: "}")
        ]
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\":1,}", "01", "1.", "-", "tru", "\"unterminated", "{\"a\" 1}", "\"\u{01}\"",
        "\"\\ud800\"", "\"\\x\"", "1e999", "{1:2}", "nul", String(repeating: "[", count: 70) + String(repeating: "]", count: 70),
    ])
    func withoutKeepingMetaTheUncheckedMembersAreStillCheckedInFull(value: String) {
        guard case .rejected(_, let error) = Self.check(Self.line(withUnchecked: value), keepingMeta: false) else {
            Issue.record("expected \(value) to be rejected")
            return
        }
        #expect(error.code == .invalidJSON)
    }

    @Test func withoutKeepingMetaInvalidUTF8InAnUncheckedMemberIsRejected() {
        let line = Self.line(withUnchecked: "\"").dropLast() + [0xC3, 0x28, UInt8(ascii: "\""), UInt8(ascii: "}")]
        guard case .rejected(_, let error) = Self.check(Array(line), keepingMeta: false) else {
            Issue.record("expected a rejection")
            return
        }
        #expect(error.code == .invalidJSON)
    }

    @Test func withoutKeepingMetaAValidLineGivesTheSameFieldsAndTheMembersKept() throws {
        let extra = #"{"list":[1,-2.5e3,"a\u00e9\ud83d\ude00",null,{"deep":[[true,false]]}],"text":"ünïcødé","REPORT_ID":"nested"}"#
        let line = Self.line(withUnchecked: extra)
        let members = RecordCheck.KeptMembers(alsoKeeping: ["x", "absent"])
        guard case .valid(let full, let meta) = RecordCheck.check(metaLine: line, namespace: "JZ"),
            case .valid(let fields, let kept) = RecordCheck.check(metaLine: line, namespace: "JZ", keeping: members)
        else {
            Issue.record("expected the line to be valid both ways")
            return
        }
        #expect(fields == full)
        #expect(fields.reportID == "r1")
        #expect(kept[members.slot("REPORT_ID")] == "r1")
        #expect(kept[members.slot("x")] == meta["x"])
        #expect(kept[members.slot("x")]?.objectValue?["text"] == "ünïcødé")
        #expect(kept[members.slot("absent")] == nil)
    }

    @Test func memberNamesWithEscapesOrNonASCIITextAreMatchedAsTheirTextEitherWay() throws {
        let line = Array(
            #"{"REPORT\u005fID":"r1","\u004eAMESPACE":"JZ","MONITOR_TYPE":"t","IS_BIZ":true,"CREATE_TIME":5,"é\"":1,"USER_ID":"u"}"#.utf8)
        let members = RecordCheck.KeptMembers(alsoKeeping: ["é\"", "USER_ID"])
        guard case .valid(let full, _) = RecordCheck.check(metaLine: line, namespace: "JZ"),
            case .valid(let fields, let kept) = RecordCheck.check(metaLine: line, namespace: "JZ", keeping: members)
        else {
            Issue.record("expected the line to be valid both ways")
            return
        }
        #expect(fields == full)
        #expect(fields == RecordCheck.Fields(reportID: "r1", namespace: "JZ", monitorType: "t", isBusiness: true, createTime: 5))
        #expect(kept[members.slot("é\"")] == 1)
        #expect(kept[members.slot("USER_ID")] == "u")
    }

    @Test func keptNamesSharingACountAFirstByteOrAPrefixAndTheEmptyNameAreToldApart() {
        let line = Array(
            #"{"REPORT_ID":"r1","NAMESPACE":"JZ","MONITOR_TYPE":"t","IS_BIZ":true,"CREATE_TIME":5,"ab":1,"aX":2,"a":3,"abc":4,"":5,"b":6,"REPORT_IDS":7}"#
                .utf8)
        let members = RecordCheck.KeptMembers(alsoKeeping: ["aX", "ab", "abc", "a", "", "ac", "REPORT_ID2"])
        guard case .valid(let fields, let kept) = RecordCheck.check(metaLine: line, namespace: "JZ", keeping: members) else {
            Issue.record("expected the line to be valid")
            return
        }
        #expect(fields.reportID == "r1")
        for (name, value) in [("ab", 1), ("aX", 2), ("a", 3), ("abc", 4), ("", 5)] {
            #expect(kept[members.slot(name)] == .int(Int64(value)), "\(name)")
        }
        #expect(kept[members.slot("ac")] == nil)
        #expect(kept[members.slot("REPORT_ID2")] == nil)
    }

    @Test(arguments: [[0xC3, 0x28], [0x01], [UInt8(ascii: "\\"), UInt8(ascii: "x")]])
    func aMemberNameThatIsNotValidTextIsRejectedEitherWay(name: [UInt8]) {
        let line = Array(#"{"REPORT_ID":"r1","NAMESPACE":"JZ","MONITOR_TYPE":"t","IS_BIZ":true,"CREATE_TIME":5,""#.utf8) + name + Array(#"":1}"#.utf8)
        for keepingMeta in [true, false] {
            guard case .rejected(_, let error) = Self.check(line, keepingMeta: keepingMeta) else {
                Issue.record("expected a rejection")
                return
            }
            #expect(error.code == .invalidJSON)
        }
    }

    @Test func aRepeatedCheckedFieldCountsByItsLastValueEitherWay() {
        let line = Array(#"{"REPORT_ID":"first","NAMESPACE":"JZ","MONITOR_TYPE":"t","IS_BIZ":true,"CREATE_TIME":5,"REPORT_ID":"last"}"#.utf8)
        for keepingMeta in [true, false] {
            guard case .valid(let fields, _) = Self.check(line, keepingMeta: keepingMeta) else {
                Issue.record("expected a valid record")
                return
            }
            #expect(fields.reportID == "last")
        }
    }
}
