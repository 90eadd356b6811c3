import Foundation
import Hermes
import HermesWire

/// `hermes torture faults`: a real client uploads through a ``FaultProxy`` that breaks a share
/// of its requests; every record must be stored once, and no namespace may ever have more
/// than one request in flight.
struct FaultTorture {
    var records: Int64
    var rate: Double
    var seed: UInt64
    /// The client's request timeout; `timeout` faults hold requests longer.
    var requestTimeout: Duration = .seconds(1)

    struct Outcome {
        var audit: DeliveryAudit
        var sent: Int
        var faults: [FaultPlan.Fault: Int]
        var maxInFlight: Int
        /// Rows still in the client's store at the end (0 when everything was delivered).
        var leftInStore: Int
    }

    func run() async throws -> Outcome {
        let plan = FaultPlan(rate: rate, seed: seed)
        let (delivery, stored) = try await TortureCollector.session("faults", document: TortureScenario.document) { collector, directory in
            let proxy = FaultProxy(upstream: collector.baseURL, plan: plan, hold: requestTimeout + .milliseconds(500))
            return try await proxy.run { base in try await deliver(through: base, key: collector.key, directory: directory.appendingPathComponent("app")) }
        }
        return Outcome(
            audit: DeliveryAudit(accepted: delivery.accepted, confirmed: delivery.accepted, stored: stored),
            sent: delivery.accepted.count, faults: plan.injected, maxInFlight: delivery.maxInFlight, leftInStore: delivery.left
        )
    }

    /// Sends every record, lets the client's own triggers (timers, backoff, Retry-After)
    /// deliver for up to 10 s, then runs explicit rounds until the store is empty.
    private func deliver(through base: URL, key: [UInt8], directory: URL) async throws -> (accepted: Set<Int64>, left: Int, maxInFlight: Int) {
        let transport = CountingTransport(URLSessionTransport())
        let client = try TortureScenario.client(collector: base, key: key, directory: directory, requestTimeout: requestTimeout, transport: transport)
        client.start()
        var accepted = Set<Int64>()
        for n in 0..<records {
            if TortureScenario.send(n, with: client) { accepted.insert(n) }
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
        await client.shutdown()
        return (accepted, left, transport.maxInFlightByNamespace.values.max() ?? 0)
    }
}
