import HermesCollector
import Testing

/// Two evaluators on one PostgreSQL database, each with its own store object, as two collector
/// instances behind a load balancer.
@Suite(.enabled(if: StorageKind.available.contains(.postgres)))
struct AlertEvaluatorInstancesTests {
    @Test func twoEvaluatorsPassingAtOnceRecordOneFiring() async throws {
        try await TestStorage.with(.postgres) { database in
            let (first, closeFirst) = try await database.open()
            let (second, closeSecond) = try await database.open()
            let signals = FakeAlertSignals()
            try await first.saveAlertRule(AlertFixtures.rule())
            signals.set { $0.crashes = 3 }
            // When both pass at the same moment
            async let a = AlertEvaluatorTests.evaluator(first, signals).pass(now: AlertFixtures.now)
            async let b = AlertEvaluatorTests.evaluator(second, signals).pass(now: AlertFixtures.now)
            let firings = await a + b
            // Then one of them fired, once
            #expect(firings.count == 1)
            #expect(try await second.alertFirings(ruleID: nil, limit: 10).map(\.id) == firings.map(\.id))
            await closeFirst()
            await closeSecond()
        }
    }

    @Test func twoInstancesEvaluatingTheSameStateAtOnceRecordItOnce() async throws {
        try await TestStorage.with(.postgres) { database in
            let (first, closeFirst) = try await database.open()
            let (second, closeSecond) = try await database.open()
            let signals = FakeAlertSignals()
            try await first.saveAlertRule(AlertFixtures.rule())
            signals.set { $0.crashes = 3 }
            // When both evaluate without the claim, at once, with different clocks
            async let a = AlertEvaluatorTests.evaluator(first, signals).evaluate(now: AlertFixtures.now)
            async let b = AlertEvaluatorTests.evaluator(second, signals).evaluate(now: AlertFixtures.now + 7)
            let recorded = await a + b
            // Then the dedupe key let one firing through
            #expect(recorded.count == 1)
            #expect(try await first.alertFirings(ruleID: nil, limit: 10).count == 1)
            // And many stores recording the same keys at once record each once
            #expect(try await AlertStorageContractTests.recordAtOnce(40, into: [first, second]) == 20)
            await closeFirst()
            await closeSecond()
        }
    }
}
