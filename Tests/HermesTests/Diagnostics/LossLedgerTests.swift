@testable import Hermes
import MetricsTestKit
import Testing

/// Loss accounting exported as the swift-metrics counter `hermes.records.lost`. The ledger
/// takes its factory, so the test needs no global `MetricsSystem` bootstrap.
struct LossLedgerTests {
    @Test func lossesAreCountedPerNamespaceAndReasonAndExportedAsCounters() throws {
        // Given a ledger exporting to a test factory
        let metrics = TestMetrics()
        let ledger = LossLedger(metricsFactory: metrics)

        // When records are lost for two reasons in two namespaces (and a loss of none is told)
        ledger.record(3, namespace: "JZ", reason: .rejected)
        ledger.record(2, namespace: "JZ", reason: .rejected)
        ledger.record(1, namespace: "hermes", reason: .oversize)
        ledger.record(0, namespace: "hermes", reason: .evicted)

        // Then the snapshot and the counters agree, with one counter per (namespace, reason)
        #expect(ledger.snapshot == ["JZ": [.rejected: 5], "hermes": [.oversize: 1]])
        #expect(try metrics.expectCounter("hermes.records.lost", [("namespace", "JZ"), ("reason", "rejected")]).totalValue == 5)
        #expect(try metrics.expectCounter("hermes.records.lost", [("namespace", "hermes"), ("reason", "oversize")]).totalValue == 1)
        #expect(metrics.counters(label: "hermes.records.lost").count == 2)
    }

    @Test func rejectionsAreCountedPerCodeAndAsTheRejectedLoss() throws {
        // Given a ledger exporting to a test factory
        let metrics = TestMetrics()
        let ledger = LossLedger(metricsFactory: metrics)

        // When the collector rejects records of JZ with two codes, in two answers
        ledger.recordRejections(["invalidField": 2, "refusedByRule": 1], namespace: "JZ")
        ledger.recordRejections(["invalidField": 1], namespace: "JZ")

        // Then they are rejected losses, counted per code too
        #expect(ledger.snapshot == ["JZ": [.rejected: 4]])
        #expect(ledger.rejections == ["JZ": ["invalidField": 3, "refusedByRule": 1]])
        #expect(try metrics.expectCounter("hermes.records.rejected", [("namespace", "JZ"), ("code", "invalidField")]).totalValue == 3)
        #expect(try metrics.expectCounter("hermes.records.lost", [("namespace", "JZ"), ("reason", "rejected")]).totalValue == 4)
    }
}
