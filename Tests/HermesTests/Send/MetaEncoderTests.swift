@testable import Hermes
import HermesWire
import Testing

struct MetaEncoderTests {
    static let constant: [String: JSONValue] = [
        RecordField.appName: "Demo \"quoted\"", RecordField.appVersion: "1.2.0", RecordField.appBuild: "42",
        RecordField.deviceID: "6F9619FF-8B86-D011-B42D-00C04FC964FF", RecordField.osName: "Linux",
        RecordField.osVersion: "6.1", RecordField.deviceModel: "x86_64", RecordField.sdkVersion: "0.1.0",
    ]

    /// Keys that sort before, between and after the common fields, and some that collide with them.
    static let keys = [
        "a", "APP", "APP_NAME", "CREATE_TIME", "Z", "_x", "duration_ms", "é", "REPORT_ID", "NAMESPACE", "zz", "IS_BIZ", "OS", "\u{1}ctl",
    ]
    static let values: [JSONValue] = [
        "text", "with \"quote\" and \\ and \n", .int(-7), .double(2.5), .bool(true), .null, ["nested": [1, "two"]], "日本",
    ]

    @Test(arguments: ["appLag", "appCrash"])
    func writesTheSameBytesAsMergingAndEncodingTheDictionary(type: String) throws {
        let encoder = MetaEncoder(constant: Self.constant)
        var random = SplitMix64(seed: 7)
        for round in 0..<500 {
            var user: [String: JSONValue] = [:]
            for _ in 0..<Int(random.next() % 13) {
                user[Self.keys[Int(random.next() % UInt64(Self.keys.count))]] = Self.values[Int(random.next() % UInt64(Self.values.count))]
            }
            let varying = MetaEncoder.Varying(
                reportID: "ID-\(round)", createTime: 1_763_000_000_000 + Int64(round), monitorType: "JZ-\(type)",
                isBusiness: round % 2 == 0, namespace: "JZ"
            )

            let bytes = try encoder.encode(user: user, varying: varying, type: type)

            let merged = RecordMeta.merge(user: user, common: encoder.common(varying), type: type)
            #expect(String(decoding: bytes, as: UTF8.self) == (try JSONValue.object(merged).jsonString()), "meta \(user)")
            #expect(merged[RecordField.createTime] == .int(varying.createTime))
        }
    }

    /// A meta is first written into a stack buffer: one that fills it exactly, or outgrows it by
    /// a byte, in the middle of an escape or of a copied run, is written whole all the same.
    @Test func aMetaOfAnySizeAroundTheStackBufferIsWrittenWhole() throws {
        let encoder = MetaEncoder(constant: Self.constant)
        let varying = MetaEncoder.Varying(
            reportID: "ID", createTime: 1_763_000_000_000, monitorType: "appLag", isBusiness: false, namespace: "hermes")
        var sizes = Set<Int>()
        for length in 0..<900 {
            for tail in ["", "\u{1}", "\"", "é"] {
                let user: [String: JSONValue] = ["a": .string(String(repeating: "x", count: length) + tail), "zz": .int(Int64(length))]

                let bytes = try encoder.encode(user: user, varying: varying, type: "appLag")

                let merged = RecordMeta.merge(user: user, common: encoder.common(varying), type: "appLag")
                #expect(bytes == (try JSONValue.object(merged).jsonBytes()))
                sizes.insert(bytes.count)
            }
        }
        // Both sides of the buffer's edge were written.
        #expect(sizes.contains(1_023) && sizes.contains(1_024) && sizes.contains(1_025) && sizes.contains { $0 > 1_100 })
        #expect(sizes.contains { $0 < 500 })
    }

    @Test(arguments: ["appLag", "appCrash"])
    func globalPropertiesGoUnderTheCallersFieldsAndNeverMoveACommonField(type: String) throws {
        let identity: [String: JSONValue] = [RecordField.userID: .null, RecordField.anonymousID: "A", RecordField.sessionID: "S"]
        let properties: [String: JSONValue] = ["a": "property", "plan": "free", "zz": 1, "USER_ID": "forged", "REPORT_ID": "forged"]
        let encoder = MetaEncoder(constant: Self.constant.merging(identity) { _, new in new }, properties: properties)
        let kept = properties.filter { !RecordField.all.contains($0.key) }
        var random = SplitMix64(seed: 11)
        for round in 0..<300 {
            var user: [String: JSONValue] = [:]
            for _ in 0..<(1 + Int(random.next() % 5)) {
                let keys = Self.keys + ["plan", "USER_ID", "SESSION_ID"]
                user[keys[Int(random.next() % UInt64(keys.count))]] = Self.values[Int(random.next() % UInt64(Self.values.count))]
            }
            let varying = MetaEncoder.Varying(reportID: "ID-\(round)", createTime: 1, monitorType: type, isBusiness: false, namespace: "hermes")

            let bytes = try encoder.encode(user: user, varying: varying, type: type)

            let merged = RecordMeta.merge(user: kept.merging(user) { _, callerValue in callerValue }, common: encoder.common(varying), type: type)
            #expect(String(decoding: bytes, as: UTF8.self) == (try JSONValue.object(merged).jsonString()), "meta \(user)")
            let written = try JSONValue(parsing: bytes)
            #expect(written["REPORT_ID"] == .string(varying.reportID))
            if type != "appCrash" { #expect(written["USER_ID"] == .null && written["SESSION_ID"] == "S") }
            #expect(written["plan"] == (user["plan"] ?? "free"))
        }
    }

    @Test func aValueTheCollectorCouldNotReadBackIsAnError() throws {
        let encoder = MetaEncoder(constant: Self.constant)
        let varying = MetaEncoder.Varying(reportID: "r", createTime: 1, monitorType: "appLag", isBusiness: false, namespace: "hermes")
        let deep = (0..<63).reduce(JSONValue.int(1)) { inner, _ in .array([inner]) }
        #expect(throws: HermesWireError.self) { try encoder.encode(user: ["x": deep], varying: varying, type: "appLag") }
        #expect(throws: HermesWireError.self) { try encoder.encode(user: ["APP_NAME": deep], varying: varying, type: "appCrash") }
        let deepest = (0..<62).reduce(JSONValue.int(1)) { inner, _ in .array([inner]) }
        #expect(try JSONValue(parsing: encoder.encode(user: ["x": deepest], varying: varying, type: "appLag"))["x"] == deepest)
    }

    @Test func aNonFiniteNumberIsAnError() {
        let encoder = MetaEncoder(constant: Self.constant)
        let varying = MetaEncoder.Varying(reportID: "r", createTime: 1, monitorType: "appLag", isBusiness: false, namespace: "hermes")
        #expect(throws: HermesWireError.self) { try encoder.encode(user: ["x": ["y": .double(.nan)]], varying: varying, type: "appLag") }
        #expect(throws: HermesWireError.self) { try encoder.encode(user: ["APP_NAME": .double(.infinity)], varying: varying, type: "appCrash") }
    }
}
