package import Foundation
package import Hermes
package import HermesWire
package import Logging

/// The simulated app of `hermes demo`: a real `HermesClient` sending the scenario's records to
/// a collector, then uploading until its store is empty.
package struct DemoApp {
    package struct Key: Hashable, Comparable {
        package var namespace: String
        package var type: String

        package static func < (lhs: Key, rhs: Key) -> Bool { (lhs.namespace, lhs.type) < (rhs.namespace, rhs.type) }
    }

    package struct Result {
        package var sent: [Key: Int] = [:]
        package var accepted: [Key: Int] = [:]
        /// The REPORT_IDs accepted, per namespace.
        package var acceptedIDs: [String: Set<String>] = [:]
        package var wireBytes: [String: Int] = [:]
        package var revision = 0
        package var leftInStore = 0
        /// How the last upload round of each namespace ended.
        package var lastOutcomes: [String: UploadSummary.Outcome] = [:]
    }

    package var configURL: URL
    package var credentials: HermesClient.Credentials
    package var logger: Logger

    package init(configURL: URL, credentials: HermesClient.Credentials, logger: Logger) {
        self.configURL = configURL
        self.credentials = credentials
        self.logger = logger
    }

    package func run(progress: (Int, Int) async -> Void) async throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-demo-app-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let transport = CountingTransport(URLSessionTransport())
        var configuration = HermesClient.Configuration(
            storageDirectory: directory,
            app: .init(name: "DemoApp", version: "1.2.0", build: "42"),
            configURL: configURL,
            credentials: credentials,
            namespaceDefaults: DemoScenario.localDefaults,
            uploadStartDelay: .milliseconds(300),
            requestTimeout: .seconds(10),
            transport: transport
        )
        // Any time in the background ends a session, so that the demo's short pause shows two.
        configuration.sessionTimeout = .zero
        let client = try HermesClient(configuration: configuration, logger: logger)
        client.start()
        var result = Result()
        // The configuration arrives in the background; give it a moment so the run is under the collector's rules.
        for _ in 0..<50 where client.configurationRevision == 0 { try await Task.sleep(for: .milliseconds(50)) }
        result.revision = client.configurationRevision

        var random = SplitMix64(seed: 2_026)
        let schedule = DemoScenario.schedule()
        for (position, (item, index)) in schedule.enumerated() {
            let key = Key(namespace: item.namespace, type: item.type)
            let meta = DemoScenario.meta(item, index, random: &random)
            let payload = item.payloadBytes > 0 ? DemoScenario.stack(bytes: item.payloadBytes, index: index, random: &random) : nil
            let outcome = client.namespace(item.namespace).send(type: item.type, meta: meta, payload: payload)
            result.sent[key, default: 0] += 1
            if let reportID = outcome.reportID {
                result.accepted[key, default: 0] += 1
                result.acceptedIDs[item.namespace, default: []].insert(reportID)
            }
            if position == schedule.count / 3 {
                // The user logs in.
                client.identify(userID: DemoScenario.userID, traits: ["plan": "pro"])
            }
            if position == schedule.count / 2 {
                // The user leaves the app for a moment and comes back: a second session.
                await client.didEnterBackground()
                try await Task.sleep(for: .milliseconds(20))
                client.willEnterForeground()
            }
            if position % 100 == 99 {
                // An app sends in bursts; let the SDK's background work breathe between them.
                try await Task.sleep(for: .milliseconds(10))
                await progress(position + 1, schedule.count)
            }
        }
        try await client.flush()
        await progress(schedule.count, schedule.count)

        // Upload until nothing is left (the timers have been uploading all along).
        for _ in 0..<20 {
            let summaries = await client.upload()
            result.lastOutcomes = summaries.mapValues(\.outcome)
            if summaries.values.allSatisfy({ $0.outcome == .completed }) { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        result.leftInStore = try StoreInspector.inspect(storageDirectory: directory).groups.reduce(0) { $0 + $1.rows }
        await client.shutdown()
        result.wireBytes = transport.bytesByNamespace
        return result
    }
}
