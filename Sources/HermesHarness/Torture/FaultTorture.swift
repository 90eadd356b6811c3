package import Foundation
package import Hermes
package import HermesWire

/// `hermes torture faults`: a real client uploads through a ``FaultProxy`` that breaks a share
/// of its requests and refuses two stretches of them (401, 404), while one record in fifty is
/// poisoned (the collector's record rule refuses it): every other record must be stored once,
/// the poisoned ones rejected and deleted exactly, and no namespace may ever have more than one
/// request in flight.
package struct FaultTorture {
    package var records: Int64
    package var rate: Double
    package var seed: UInt64
    /// The client's request timeout; `timeout` faults hold requests longer.
    package var requestTimeout: Duration = .seconds(1)

    package init(records: Int64, rate: Double, seed: UInt64, requestTimeout: Duration = .seconds(1)) {
        self.records = records
        self.rate = rate
        self.seed = seed
        self.requestTimeout = requestTimeout
    }

    /// Whether record `n` is poisoned.
    package static func isPoisoned(_ n: Int64) -> Bool { n % 50 == 25 }

    package struct Outcome {
        package var audit: DeliveryAudit
        package var sent: Int
        /// Poisoned records among those sent.
        package var poisoned: Int
        /// Records the client counted as rejected by the collector (and deleted).
        package var rejected: Int
        package var faults: [FaultPlan.Fault: Int]
        package var maxInFlight: Int
        /// Rows still in the client's store at the end (0 when everything was delivered).
        package var leftInStore: Int

        /// Whether the run kept every promise: every good record stored once, exactly the
        /// poisoned ones rejected, nothing left, one request in flight per namespace at most.
        package var passed: Bool {
            audit.kept && audit.stored + rejected == sent && rejected == poisoned && leftInStore == 0 && maxInFlight <= 1
        }
    }

    package func run() async throws -> Outcome {
        let plan = FaultPlan(rate: rate, seed: seed)
        let (delivery, stored) = try await TortureCollector.session("faults", document: TortureScenario.document) { collector, directory in
            let proxy = FaultProxy(upstream: collector.baseURL, plan: plan, hold: requestTimeout + .milliseconds(500))
            return try await proxy.run { base in
                try await deliver(through: base, key: collector.key, directory: directory.appendingPathComponent("app"))
            }
        }
        // The poisoned records are audited apart (rejected = poisoned); every other one must arrive.
        let poisoned = delivery.accepted.filter(Self.isPoisoned)
        let good = delivery.accepted.subtracting(poisoned)
        return Outcome(
            audit: DeliveryAudit(accepted: good, confirmed: good, stored: stored),
            sent: delivery.accepted.count, poisoned: poisoned.count, rejected: delivery.rejected, faults: plan.injected,
            maxInFlight: delivery.maxInFlight, leftInStore: delivery.left
        )
    }

    private struct Delivery {
        var accepted: Set<Int64>
        var rejected: Int
        var left: Int
        var maxInFlight: Int
    }

    /// Sends every record, lets the client's own triggers (timers, backoff, Retry-After)
    /// deliver for up to 10 s, then runs explicit rounds until the store is empty.
    private func deliver(through base: URL, key: [UInt8], directory: URL) async throws -> Delivery {
        let transport = CountingTransport(PlatformTransport())
        let client = try TortureScenario.client(collector: base, key: key, directory: directory, requestTimeout: requestTimeout, transport: transport)
        client.start()
        var accepted = Set<Int64>()
        for n in 0..<records {
            if TortureScenario.send(n, with: client, poisoned: Self.isPoisoned(n)) { accepted.insert(n) }
            if n % 100 == 99 { try await Task.sleep(for: .milliseconds(20)) }
        }
        try await client.flush()
        let patience = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < patience, try TortureScenario.rowsLeft(in: directory) > 0 {
            try await Task.sleep(for: .milliseconds(250))
        }
        for _ in 0..<200 where try TortureScenario.rowsLeft(in: directory) > 0 {
            await client.upload()
        }
        let left = try TortureScenario.rowsLeft(in: directory)
        let rejected = client.diagnostics().losses.values.reduce(0) { $0 + ($1[.rejected] ?? 0) }
        await client.shutdown()
        return Delivery(accepted: accepted, rejected: rejected, left: left, maxInFlight: transport.maxInFlightByNamespace.values.max() ?? 0)
    }
}

extension FaultTorture.Outcome {
    /// The figures `hermes torture faults` prints.
    package func report() -> BenchReport {
        var report = BenchReport()
        report.add("sent", Double(sent), "records sent")
        report.add("stored", Double(audit.stored), "records stored at the collector")
        report.add("poisoned", Double(poisoned), "records sent poisoned (the collector refuses them)")
        report.add("rejected", Double(rejected), "records the client saw rejected and deleted (must equal poisoned)")
        report.add("lost", Double(audit.lostAccepted), "good records missing (must be 0)")
        report.add("duplicates", Double(audit.duplicates), "extra copies stored (must be 0)")
        report.add("faults_injected", Double(faults.values.reduce(0, +)), "faults injected")
        for fault in FaultPlan.Fault.allCases {
            report.add("faults_\(fault.rawValue)", Double(faults[fault] ?? 0), "  \(fault.rawValue)")
        }
        report.add("left_in_store", Double(leftInStore), "rows left in the client's store (must be 0)")
        report.add("max_in_flight_per_namespace", Double(maxInFlight), "most requests in flight in one namespace (must be 1)")
        return report
    }
}
