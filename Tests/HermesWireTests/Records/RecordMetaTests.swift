import HermesWire
import Testing

struct RecordMetaTests {
    let common: [String: JSONValue] = [
        "REPORT_ID": "sdk-id", "MONITOR_TYPE": "appCrash", "IS_BIZ": false, "NAMESPACE": "hermes",
        "CREATE_TIME": 2_000, "APP_VERSION": "2.0", "OS_VERSION": "18.1",
    ]

    @Test func commonFieldsWinForOrdinaryTypes() {
        let user: [String: JSONValue] = ["APP_VERSION": "1.0", "CREATE_TIME": 1_000, "screen": "home"]
        let merged = RecordMeta.merge(user: user, common: common, type: "appLag")
        #expect(merged["APP_VERSION"] == "2.0")
        #expect(merged["CREATE_TIME"] == 2_000)
        #expect(merged["screen"] == "home")
        #expect(merged.count == common.count + 1)
    }

    @Test func callerFieldsWinForAppCrashExceptTheCheckedOnes() {
        let user: [String: JSONValue] = ["APP_VERSION": "1.0", "CREATE_TIME": "yesterday", "OS_VERSION": "17.0", "signal": "SIGSEGV"]
        let merged = RecordMeta.merge(user: user, common: common, type: MonitorType.appCrash)
        #expect(merged["APP_VERSION"] == "1.0")
        #expect(merged["OS_VERSION"] == "17.0")
        #expect(merged["signal"] == "SIGSEGV")
        #expect(merged["CREATE_TIME"] == 2_000)
    }

    @Test func checkedFieldsComeFromHermesEvenForAppCrash() {
        let user: [String: JSONValue] = [
            "REPORT_ID": "forged", "NAMESPACE": "JZ", "MONITOR_TYPE": "x", "IS_BIZ": "yes", "CREATE_TIME": 1.5,
        ]
        let merged = RecordMeta.merge(user: user, common: common, type: MonitorType.appCrash)
        #expect(RecordCheck.checkedFields == ["REPORT_ID", "NAMESPACE", "MONITOR_TYPE", "IS_BIZ", "CREATE_TIME"])
        for field in RecordCheck.checkedFields {
            #expect(merged[field] == common[field], "\(field)")
        }
    }

    @Test func everyCommonFieldHasTheSpecName() {
        #expect(
            RecordField.all == [
                "REPORT_ID", "CREATE_TIME", "MONITOR_TYPE", "IS_BIZ", "NAMESPACE", "APP_NAME", "APP_VERSION",
                "APP_BUILD", "DEVICE_ID", "OS_NAME", "OS_VERSION", "DEVICE_MODEL", "SDK_VERSION",
                "USER_ID", "ANON_ID", "SESSION_ID",
            ])
    }
}
