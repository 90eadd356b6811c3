import Foundation
import GRDB
@testable import Hermes
import HermesTestKit
import HermesWire
import Testing

/// The checks of specification §4 on the namespace, the type and the sizes, with their error codes; a
/// rejected record stores nothing. Malformed calls are in ``BadInputMatrixTests``.
struct SendChecksTests {
    @Test func aNamespaceWithoutConfigurationSaysWhy() async throws {
        let harness = Harness()
        let client = try harness.client()
        let outcome = client.send(type: "pay", prefix: "KX", meta: ["a": 1])
        #expect(outcome.code == .namespaceNotConfigured)
        #expect(outcome.error?.message == "namespace KX has no configuration: register a default or configure it on the server")
        await client.shutdown()
    }

    @Test func aNamespaceThatDoesNotGatherRejects() async throws {
        let harness = Harness()
        var off = Harness.jz
        off.isGather = false
        let client = try harness.client(defaults: ["JZ": off])
        #expect(client.send(type: "pay", prefix: "JZ", meta: ["a": 1]).code == .notGathering)
        await client.shutdown()
    }

    @Test func aTypeOutsideTheMonitorListIsRejected() async throws {
        let harness = Harness()
        let client = try harness.client()
        #expect(client.send(type: "refund", prefix: "JZ", meta: ["a": 1]).code == .typeNotMonitored)
        #expect(client.send(type: "pay", meta: ["a": 1]).code == .typeNotMonitored)
        await client.shutdown()
    }

    /// The names a configuration lists are checked once, when it is applied: a listed type or a
    /// configured namespace that holds a NUL is refused as an unlisted one is.
    @Test func aListedTypeOrConfiguredNamespaceHoldingANulIsRefused() async throws {
        let harness = Harness()
        let listed = NamespaceConfiguration(monitorList: [MonitorItem(type: "pa\u{0}y"), MonitorItem(type: "pay")])
        let client = try harness.client(defaults: ["JZ": listed, "J\u{0}Z": listed])
        let nulType = client.send(type: "pa\u{0}y", prefix: "JZ", meta: ["a": 1])
        let nulPrefix = client.send(type: "pay", prefix: "J\u{0}Z", meta: ["a": 1])
        let clean = client.send(type: "pay", prefix: "JZ", meta: ["a": 1])
        try await client.flush()
        await client.shutdown()

        #expect(nulType.code == .invalidText)
        #expect(nulType.error?.message == "type holds a NUL character")
        #expect(nulPrefix.code == .invalidText)
        #expect(nulPrefix.error?.message == "prefix holds a NUL character")
        #expect(clean.isAccepted)
        #expect(try harness.metas("meta").map { $0[RecordField.monitorType] } == ["JZ-pay"])
    }

    @Test func thePrefixHermesSendsToTheMonitoringNamespaceAsNoPrefixDoes() async throws {
        let harness = Harness()
        let client = try harness.client(defaults: ["hermes": Harness.quietHermes, "JZ": Harness.jz])
        let viaPrefix = client.send(type: "appLag", prefix: "hermes", meta: ["a": 1])
        let direct = client.send(type: "appLag", meta: ["a": 2])
        let business = client.send(type: "pay", prefix: "JZ", meta: ["a": 3])
        #expect(client.send(type: "pay", prefix: "", meta: ["a": 4]).code == .emptyPrefix)
        try await client.flush()
        await client.shutdown()

        #expect(viaPrefix.isAccepted && direct.isAccepted && business.isAccepted)
        let metas = try harness.metas("meta")
        #expect(metas.map { $0[RecordField.monitorType] } == ["appLag", "appLag", "JZ-pay"])
        #expect(metas.map { $0[RecordField.isBusiness] } == [false, false, true])
        #expect(metas.map { $0[RecordField.namespace] } == ["hermes", "hermes", "JZ"])
    }

    @Test func theSampleRateKeepsItsShareOfRecords() async throws {
        let harness = Harness()
        let sampled = NamespaceConfiguration(monitorList: [
            MonitorItem(type: "none", sampleRate: 0), MonitorItem(type: "half", sampleRate: 0.5), MonitorItem(type: "all", sampleRate: 1),
        ])
        let client = try harness.client(defaults: ["JZ": sampled])
        let kept = (0..<1_000).filter { client.send(type: "half", prefix: "JZ", meta: ["i": .int(Int64($0))]).isAccepted }.count
        #expect((420...580).contains(kept))
        #expect(client.send(type: "none", prefix: "JZ", meta: ["a": 1]).code == .sampledOut)
        #expect(client.send(type: "all", prefix: "JZ", meta: ["a": 1]).isAccepted)
        try await client.flush()
        await client.shutdown()
        #expect(try harness.rows("meta").count == kept + 1)
    }

    @Test func metaAndStoredSizeLimitsApply() async throws {
        // Given a namespace that accepts 2,048 meta bytes and stores records of 1,048 bytes
        let harness = Harness()
        var small = Harness.jz
        small.maxMetaKByte = 2
        small.maxBodyMByte = 0.001
        let client = try harness.client(defaults: ["JZ": small])
        let probe = try #require(client.send(type: "pay", prefix: "JZ", meta: ["a": 1]).reportID)
        try await client.flush()
        let metaSize = try #require(try harness.rows("meta").first?["size"] as Int?)

        // When records around each limit are sent
        let overMeta = client.send(type: "pay", prefix: "JZ", meta: ["blob": .string(String(repeating: "x", count: 2_100))])
        let overStoredMetaOnly = client.send(type: "pay", prefix: "JZ", meta: ["blob": .string(String(repeating: "x", count: 1_200))])
        let overStored = client.send(type: "pay", prefix: "JZ", meta: ["a": 1], payload: Data(count: 1_048 - metaSize + 1))
        let fits = client.send(type: "pay", prefix: "JZ", meta: ["a": 1], payload: Data(count: 1_048 - metaSize))
        try await client.flush()
        await client.shutdown()

        // Then the meta over maxMetaKByte, and the records whose meta plus payload pass
        // maxBodyMByte, are refused; the one that fits exactly is stored
        #expect(overMeta.code == .metaTooLarge)
        #expect(overStoredMetaOnly.code == .metaTooLarge)
        #expect(overStored.code == .payloadTooLarge)
        #expect(
            overStored.error?.message
                == "record of type pay is 1049 bytes (meta \(metaSize) + payload \(1_048 - metaSize + 1)); namespace JZ stores records of at most 1048 bytes (maxBodyMByte)"
        )
        #expect(fits.isAccepted)
        #expect(try harness.rows("payload").map { $0["size"] as Int } == [1_048])
        #expect(try harness.rows("meta").map { $0["report_id"] as String } == [probe])
    }

    @Test func recordsGoToTheirTableWithTheirSizeAndCommonFields() async throws {
        let harness = Harness()
        let client = try harness.client()
        let lag = client.send(type: "appLag", meta: ["duration_ms": 420])
        let crash = client.send(type: "appCrash", meta: ["signal": "SIGSEGV"], payload: Data("stack".utf8))
        let pay = client.send(type: "pay", prefix: "JZ", meta: ["amount": 12])
        try await client.flush()
        await client.shutdown()

        let metaRows = try harness.rows("meta")
        #expect(metaRows.map { $0["report_id"] as String } == [lag.reportID, pay.reportID])
        let payloadRows = try harness.rows("payload")
        #expect(payloadRows.map { $0["report_id"] as String } == [crash.reportID])
        #expect(payloadRows[0]["payload"] as Data == Data("stack".utf8))
        #expect(payloadRows[0]["size"] as Int == (payloadRows[0]["meta"] as String).utf8.count + 5)

        let payMeta = try harness.metas("meta")[1]
        #expect(payMeta["MONITOR_TYPE"] == "JZ-pay")
        #expect(payMeta["IS_BIZ"] == true)
        #expect(payMeta["NAMESPACE"] == "JZ")
        #expect(payMeta["amount"] == 12)
        #expect(payMeta["APP_NAME"] == "Demo" && payMeta["APP_VERSION"] == "1.2.0" && payMeta["APP_BUILD"] == "42")
        #expect(payMeta["OS_NAME"] == "TestOS" && payMeta["OS_VERSION"] == "1.0" && payMeta["DEVICE_MODEL"] == "Tester")
        #expect(payMeta["SDK_VERSION"] == .string(HermesClient.sdkVersion))
        #expect(payMeta["CREATE_TIME"] == .int(harness.now))
        #expect(payMeta["REPORT_ID"] == .string(pay.reportID!))
        #expect(UUID(uuidString: pay.reportID!) != nil)
        let lagMeta = try harness.metas("meta")[0]
        #expect(lagMeta["MONITOR_TYPE"] == "appLag" && lagMeta["IS_BIZ"] == false && lagMeta["NAMESPACE"] == "hermes")
    }

    @Test func theDeviceIDIsMadeOnceAndKept() async throws {
        let harness = Harness()
        var ids: [JSONValue?] = []
        for _ in 0..<2 {
            let client = try harness.client()
            client.send(type: "appLag", meta: ["a": 1])
            try await client.flush()
            await client.shutdown()
            ids.append(try harness.metas("meta").last?["DEVICE_ID"])
        }
        #expect(ids[0] != nil && ids[0] == ids[1])
        #expect(UUID(uuidString: ids[0]?.stringValue ?? "") != nil)
    }

    @Test func aCrashKeepsTheFactsOfTheRunThatCrashedButNotTheCheckedFields() async throws {
        let harness = Harness()
        let client = try harness.client()
        client.send(
            type: "appCrash",
            meta: [
                "APP_VERSION": "1.1.0", "CREATE_TIME": "yesterday", "REPORT_ID": "forged", "IS_BIZ": "no", "NAMESPACE": "JZ", "MONITOR_TYPE": "x",
            ], payload: Data("s".utf8))
        client.send(type: "appLag", meta: ["APP_VERSION": "1.1.0", "CREATE_TIME": 1_000])
        try await client.flush()
        await client.shutdown()
        let crash = try #require(try harness.metas("payload").first)
        #expect(crash["APP_VERSION"] == "1.1.0")
        #expect(crash["CREATE_TIME"] == .int(harness.now))
        #expect(crash["REPORT_ID"] != "forged")
        #expect(crash["IS_BIZ"] == false && crash["NAMESPACE"] == "hermes" && crash["MONITOR_TYPE"] == "appCrash")
        #expect(try harness.rows("payload").first?["created_time"] as Int64? == harness.now)
        let lag = try #require(try harness.metas("meta").first)
        #expect(lag["APP_VERSION"] == "1.2.0")
        #expect(lag["CREATE_TIME"] == .int(harness.now))
    }
}
