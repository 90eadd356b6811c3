import Foundation
@testable import Hermes
import HermesCollector
import HermesHarness
import HermesWire
import Testing

/// Configuration per device: a collector whose `hermes` namespace samples `net` at 10 %, with an
/// override that samples all of it on 10 % of devices; two real clients, one drawn in.
struct TargetedConfigurationTests {
    static let rollout = ConfigurationOverride(
        name: "net-everything", percentage: 10,
        set: ["monitorList": .array([["type": "net", "sampleRate": 1], ["type": "appCrash", "isRealtime": true, "isUploadPayload": true]])])

    /// A device id drawn into the rollout (`inside`) or not, by the collector's own rule.
    static func deviceID(inside: Bool) throws -> String {
        for _ in 0..<100_000 {
            let id = UUID().uuidString
            if (ConfigurationOverride.bucket(namespace: "hermes", name: rollout.name, deviceID: id) < 1_000) == inside { return id }
        }
        throw RunFailure("no device id drawn")
    }

    @Test func twoClientsOneInATenPercentRolloutGetDifferentSampleRates() async throws {
        let loopback = try Loopback()
        var hermes = NamespaceConfiguration.hermesDefault
        hermes.monitorList = [MonitorItem(type: "net", sampleRate: 0.1), MonitorItem(type: "appCrash", isRealtime: true, isUploadPayload: true)]
        hermes.overrides = [Self.rollout]
        let server = try await CollectorServer.start(
            configuration: CollectorConfiguration(
                port: 0, appKeys: [Loopback.appKey], adminToken: Loopback.adminToken, keyring: Keyring([Loopback.cipher]),
                initialConfiguration: ConfigurationDocument(revision: 3, namespaces: ["hermes": hermes])),
            storage: loopback.storage, logger: loopback.logger)

        // Given two devices, one drawn into the rollout and one not
        var rates: [Double?] = []
        var outcomes: [String] = []
        for (name, inside) in [("inside", true), ("outside", false)] {
            let storage = loopback.directory.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: storage, withIntermediateDirectories: true)
            try Data(try Self.deviceID(inside: inside).utf8).write(to: storage.appendingPathComponent("device-id"))
            let client = try loopback.client(port: server.port, name: name)
            // When each fetches the configuration, twice
            let first = await client.configurationService.refresh()
            let second = await client.configurationService.refresh()
            rates.append(client.configuration(for: "hermes")?.monitorItem(for: "net")?.sampleRate)
            outcomes.append("\(first)".components(separatedBy: "(").first! + " " + "\(second)")
            await client.shutdown()
        }
        try await server.shutdown()

        // Then the device inside samples all of its requests and the other one in ten; each
        // device's second fetch is a 304 for its own document
        #expect(rates == [1, 0.1])
        #expect(outcomes.allSatisfy { $0.hasPrefix("updated") && $0.hasSuffix("notModified") })
    }
}
