import HermesWire
import Testing

/// Overrides of a namespace's configuration for some devices, resolved per device.
struct ConfigurationOverrideTests {
    static let json = """
        {"revision": 4, "namespaces": {"JZ": {"maxItem": 100, "monitorList": [{"type": "pay", "sampleRate": 0.5}],
         "overrides": [
           {"name": "old-app", "appVersions": ["2.0.0"], "set": {"isUpload": false}},
           {"name": "qa", "deviceIDs": ["qa-1"], "set": {"maxItem": 10}},
           {"name": "half", "percentage": 50, "set": {"monitorList": [{"type": "pay", "sampleRate": 1}]}}]}}}
        """

    @Test func overridesReadBackAndEachTargetGetsTheOnesThatApplyInOrder() throws {
        let document = try ConfigurationDocument(jsonBytes: Array(Self.json.utf8))
        #expect(try ConfigurationDocument(jsonBytes: document.jsonBytes()) == document)
        let overrides = try #require(document.namespaces["JZ"]?.overrides)
        #expect(overrides.map(\.name) == ["old-app", "qa", "half"])

        // An old app on the QA device, outside the half: the first two apply, in order
        let qa = ConfigurationTarget(deviceID: "qa-1", appVersion: "2.0.0")
        let (resolved, applied) = document.resolved(for: qa)
        let jz = try #require(resolved.namespaces["JZ"])
        let inHalf = ConfigurationOverride.bucket(namespace: "JZ", name: "half", deviceID: "qa-1") < 5_000
        #expect(applied == (["JZ/old-app", "JZ/qa"] + (inHalf ? ["JZ/half"] : [])).sorted())
        #expect(jz.isUpload == false && jz.maxItem == 10 && jz.overrides.isEmpty)
        #expect(jz.monitorItem(for: "pay")?.sampleRate == (inHalf ? 1 : 0.5))
        // No device id, another version: nothing applies, and no override is served
        let (plain, none) = document.resolved(for: ConfigurationTarget(deviceID: nil, appVersion: "3.0.0"))
        #expect(none.isEmpty && plain.namespaces["JZ"]?.maxItem == 100 && plain.namespaces["JZ"]?.overrides.isEmpty == true)
    }

    @Test func aPercentageDrawsAboutThatShareOnceAndForAllPerDevice() {
        let devices = (0..<10_000).map { "device-\($0)" }
        let inside = devices.filter { ConfigurationOverride.bucket(namespace: "hermes", name: "rollout", deviceID: $0) < 1_000 }
        #expect((850...1_150).contains(inside.count))
        #expect(inside == devices.filter { ConfigurationOverride.bucket(namespace: "hermes", name: "rollout", deviceID: $0) < 1_000 })
    }

    @Test func anOverrideThatDoesNotReadAsConfigurationIsRefusedNamingIt() {
        let bad = #"{"namespaces": {"JZ": {"overrides": [{"name": "x", "set": {"maxItem": "many"}}]}}}"#
        #expect(throws: HermesWireError.self) { try ConfigurationDocument(jsonBytes: Array(bad.utf8)) }
        let unnamed = #"{"namespaces": {"JZ": {"overrides": [{"set": {}}]}}}"#
        #expect(throws: HermesWireError.self) { try ConfigurationDocument(jsonBytes: Array(unnamed.utf8)) }
    }
}
