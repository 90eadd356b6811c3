import HermesCollector
import Testing

/// Two evaluators on one PostgreSQL database, each with its own store object, as two collector
/// instances behind a load balancer.
@Suite(.enabled(if: StorageKind.available.contains(.postgres)), .serialized)
struct AlertEvaluatorInstancesTests {
    @Test func twoEvaluatorsPassingAtOnceRecordOneFiring() async throws {
        try await Self.withTwoInstances { first, second, signals throws in
            // When both pass at the same moment
            async let a = AlertEvaluatorTests.evaluator(first, signals).pass(now: AlertFixtures.now)
            async let b = AlertEvaluatorTests.evaluator(second, signals).pass(now: AlertFixtures.now)
            let firings = await a + b
            // Then one of them fired, once
            #expect(firings.count == 1)
            #expect(try await second.alertFirings(ruleID: nil, limit: 10).map(\.id) == firings.map(\.id))
        }
    }

    @Test func twoInstancesEvaluatingTheSameStateAtOnceRecordItOnce() async throws {
        try await Self.withTwoInstances { first, second, signals throws in
            // When both evaluate without the claim, at once, with different clocks
            async let a = AlertEvaluatorTests.evaluator(first, signals).evaluate(now: AlertFixtures.now)
            async let b = AlertEvaluatorTests.evaluator(second, signals).evaluate(now: AlertFixtures.now + 7)
            let recorded = await a + b
            // Then the dedupe key let one firing through
            #expect(recorded.count == 1)
            #expect(try await first.alertFirings(ruleID: nil, limit: 10).count == 1)
            // And many firings recorded through both stores at once are recorded once per key
            #expect(try await AlertStorageContractTests.recordAtOnce(40, into: [first, second]) == 20)
        }
    }

    /// Runs `body` with two store objects on a fresh database holding a crash rule whose
    /// condition holds (3 crashes for a threshold of 2).
    static func withTwoInstances(_ body: (any CollectorStorage, any CollectorStorage, FakeAlertSignals) async throws -> Void) async throws {
        try await TestStorage.with(.postgres) { database in
            try await database.withStore { first in
                try await database.withStore { second in
                    let signals = FakeAlertSignals()
                    try await first.saveAlertRule(AlertFixtures.rule())
                    signals.set { $0.crashes = 3 }
                    try await body(first, second, signals)
                }
            }
        }
    }
}
