import HermesCollector
import Testing

struct AlertEvaluatorTests {
    static let interval: Duration = .seconds(30)
    static let step: Int64 = 30_000

    static func evaluator(_ storage: any AlertStorage, _ signals: any AlertSignals, delivery: WebhookDelivery = WebhookDelivery()) -> AlertEvaluator {
        AlertEvaluator(
            storage: storage, signals: signals, delivery: delivery, interval: interval, wallClock: { AlertFixtures.now },
            logger: CollectorFixture.silentLogger)
    }

    @Test func aRuleFiresOnTheTransitionOnlyResolvesAndFiresAgain() async throws {
        // Given a rule for more than 2 crashes in 5 minutes, and 1 crash
        let storage = try SQLiteCollectorStorage.inMemory()
        let signals = FakeAlertSignals()
        let rule = AlertFixtures.rule()
        try await storage.saveAlertRule(rule)
        let evaluator = Self.evaluator(storage, signals)
        var now = AlertFixtures.now
        signals.set { $0.crashes = 1 }
        #expect(await evaluator.pass(now: now).isEmpty)
        // When crashes rise to 3: one firing, and none while they stay
        signals.set { $0.crashes = 3 }
        now += Self.step
        let fired = await evaluator.pass(now: now)
        #expect(fired.map(\.payload.state) == [.firing])
        #expect(fired.first?.payload.value == 3)
        #expect(fired.first?.delivery == AlertDelivery(status: .skipped))
        #expect(try await storage.alertStates()[rule.id] == AlertRuleState(ruleID: rule.id, status: .firing, since: now, evaluatedAt: now))
        let firedAt = now
        now += Self.step
        #expect(await evaluator.pass(now: now).isEmpty)
        // Then back to 0 crashes: one resolution; 5 crashes later: a new firing
        signals.set { $0.crashes = 0 }
        now += Self.step
        #expect(await evaluator.pass(now: now).map(\.payload.state) == [.resolved])
        now += Self.step
        #expect(await evaluator.pass(now: now).isEmpty)
        signals.set { $0.crashes = 5 }
        now += Self.step
        #expect(await evaluator.pass(now: now).map(\.payload.value) == [5])
        // The history says so, newest first, each with its dedupe key; every question asked for 5 minutes
        let history = try await storage.alertFirings(ruleID: rule.id, limit: 10)
        #expect(history.map(\.payload.state) == [.firing, .resolved, .firing])
        #expect(
            history.map(\.dedupeKey) == ["rule-1:firing:\(now - 2 * Self.step)", "rule-1:resolved:\(firedAt)", "rule-1:firing:\(rule.createdAt)"])
        #expect(signals.asked == (0..<6).map { AlertFixtures.now + Int64($0) * Self.step - 5 * 60_000 })
        #expect(try await storage.alertStates()[rule.id]?.evaluatedAt == now)
    }

    @Test func silenceFiresWhenANamespaceHasNoRecordsInTheWindow() async throws {
        let storage = try SQLiteCollectorStorage.inMemory()
        let signals = FakeAlertSignals()
        let rule = AlertFixtures.rule(kind: .silence(namespace: "shop", windowMinutes: 60))
        try await storage.saveAlertRule(rule)
        let evaluator = Self.evaluator(storage, signals)
        signals.set { $0.records = ["shop": 4] }
        #expect(await evaluator.pass(now: AlertFixtures.now).isEmpty)
        signals.set { $0.records = ["other": 4] }
        let fired = await evaluator.pass(now: AlertFixtures.now + Self.step)
        #expect(fired.map(\.payload.namespace) == ["shop"])
        #expect(fired.map(\.payload.value) == [0])
        #expect(fired.map(\.payload.windowMinutes) == [60])
    }

    @Test func rejectionsAboveTheThresholdFire() async throws {
        let storage = try SQLiteCollectorStorage.inMemory()
        let signals = FakeAlertSignals()
        try await storage.saveAlertRule(AlertFixtures.rule(kind: .rejections(threshold: 10, windowMinutes: 15)))
        let evaluator = Self.evaluator(storage, signals)
        signals.set { $0.rejections = 10 }
        #expect(await evaluator.pass(now: AlertFixtures.now).isEmpty)
        signals.set { $0.rejections = 11 }
        #expect(await evaluator.pass(now: AlertFixtures.now + Self.step).map(\.payload.threshold) == [10])
    }

    @Test func aNewCrashGroupFiresOnceEach() async throws {
        // Given a newCrashGroup rule and one group
        let storage = try SQLiteCollectorStorage.inMemory()
        let signals = FakeAlertSignals()
        let rule = AlertFixtures.rule(kind: .newCrashGroup)
        try await storage.saveAlertRule(rule)
        let evaluator = Self.evaluator(storage, signals)
        let a = AlertCrashGroup(signature: "sig-a", title: "Fatal error in Cart.swift")
        let b = AlertCrashGroup(signature: "sig-b", title: "EXC_BAD_ACCESS in Feed")
        signals.set { $0.groups = [a] }
        #expect(await evaluator.pass(now: AlertFixtures.now).map(\.payload.crashGroup) == [a])
        // When the signal returns it again, then with another
        let minute: Int64 = 60_000
        #expect(await evaluator.pass(now: AlertFixtures.now + 20 * minute).isEmpty)
        signals.set { $0.groups = [a, b] }
        #expect(await evaluator.pass(now: AlertFixtures.now + 40 * minute).map(\.payload.crashGroup) == [b])
        // Then each group fired once; the rule stays ok; questions start at the last pass less 10 minutes, never before the rule
        #expect(try await storage.alertFirings(ruleID: rule.id, limit: 10).map(\.dedupeKey) == ["rule-1:group:sig-b", "rule-1:group:sig-a"])
        #expect(try await storage.alertStates()[rule.id]?.status == .ok)
        #expect(signals.asked == [AlertFixtures.now, AlertFixtures.now, AlertFixtures.now + 10 * minute])
    }

    @Test func disabledRulesAreNotEvaluated() async throws {
        let storage = try SQLiteCollectorStorage.inMemory()
        let signals = FakeAlertSignals()
        try await storage.saveAlertRule(AlertFixtures.rule(isEnabled: false))
        signals.set { $0.crashes = 100 }
        #expect(await Self.evaluator(storage, signals).pass(now: AlertFixtures.now).isEmpty)
        #expect(signals.asked.isEmpty)
    }

    @Test func anotherEvaluatorWaitsUntilTheClaimExpires() async throws {
        let storage = try SQLiteCollectorStorage.inMemory()
        let signals = FakeAlertSignals()
        try await storage.saveAlertRule(AlertFixtures.rule())
        signals.set { $0.crashes = 3 }
        let first = Self.evaluator(storage, signals)
        let second = Self.evaluator(storage, signals)
        #expect(await first.pass(now: AlertFixtures.now).count == 1)
        // The claim lasts four intervals
        #expect(await second.pass(now: AlertFixtures.now + 4 * Self.step - 1).isEmpty)
        #expect(signals.asked.count == 1)
        signals.set { $0.crashes = 0 }
        #expect(await second.pass(now: AlertFixtures.now + 4 * Self.step).map(\.payload.state) == [.resolved])
    }

    @Test func aFiringIsDeliveredToTheRulesWebhookAndTheOutcomeRecorded() async throws {
        try await WebhookReceiver.with(statuses: [503]) { receiver, url in
            // Given a rule with a webhook that fails once
            let storage = try SQLiteCollectorStorage.inMemory()
            let signals = FakeAlertSignals()
            let rule = AlertFixtures.rule(webhookURL: url)
            try await storage.saveAlertRule(rule)
            signals.set { $0.crashes = 3 }
            let delivery = WebhookDelivery(wallClock: { AlertFixtures.now }, sleep: { _ in })
            // When the rule fires
            let fired = await Self.evaluator(storage, signals, delivery: delivery).pass(now: AlertFixtures.now)
            // Then the webhook got it twice, and the firing records the delivery
            let expected = AlertDelivery(status: .delivered, attempts: 2, responseStatus: 200)
            #expect(fired.map(\.delivery) == [expected])
            #expect(try await storage.alertFirings(ruleID: nil, limit: 10).map(\.delivery) == [expected])
            #expect(receiver.received.map(\.body) == [fired[0].payload.jsonBytes(), fired[0].payload.jsonBytes()])
            #expect(receiver.received.first?.header("X-Hermes-Delivery") == fired.first?.id)
        }
    }
}
