import HermesCollector
import Testing

/// The ``AlertStorage`` contract, held by every store: SQLite always, PostgreSQL when a server
/// is given (always in CI). One test at a time: each is quick, and a fresh PostgreSQL database
/// per test opening beside the rest of the suite's is what makes a loaded machine slow.
@Suite(.serialized)
struct AlertStorageContractTests {
    @Test(arguments: StorageKind.available)
    func rulesAreSavedReadBackReplacedAndDeleted(kind: StorageKind) async throws {
        try await TestStorage.with(kind) { database in
            // Given two rules saved by one store object, the second with a webhook
            let silence = AlertFixtures.rule("b", kind: .silence(namespace: "shop", windowMinutes: 30), webhookURL: "https://hooks.example.com/x")
            try await database.withStore { store throws in
                try await store.saveAlertRule(AlertFixtures.rule("a"))
                try await store.saveAlertRule(silence)
            }
            // When another store object opens the database
            try await database.withStore { store throws in
                // Then both read back whole
                #expect(try await store.alertRules() == [AlertFixtures.rule("a"), silence])
                #expect(try await store.alertRule(id: "b") == silence)
                #expect(try await store.alertRule(id: "missing") == nil)
                // And a save replaces by id, a delete removes the rule once
                var renamed = silence
                renamed.name = "Renamed"
                renamed.isEnabled = false
                renamed.webhookURL = nil
                try await store.saveAlertRule(renamed)
                #expect(try await store.alertRule(id: "b") == renamed)
                #expect(try await store.deleteAlertRule(id: "a"))
                #expect(try await store.deleteAlertRule(id: "a") == false)
                #expect(try await store.alertRules().map(\.id) == ["b"])
            }
        }
    }

    @Test(arguments: StorageKind.available)
    func aFiringIsRecordedOncePerDedupeKeyWithItsState(kind: StorageKind) async throws {
        try await TestStorage.with(kind) { database in
            try await database.withStore { store throws in
                let rule = AlertFixtures.rule()
                try await store.saveAlertRule(rule)
                let firing = AlertRuleState(ruleID: rule.id, status: .firing, since: AlertFixtures.now + 1, evaluatedAt: AlertFixtures.now + 1)
                // When a firing is recorded, then another with the same dedupe key and another state
                #expect(try await store.recordAlertFiring(AlertFixtures.firing("f1", of: rule, key: "k"), state: firing))
                let ok = AlertRuleState(ruleID: rule.id, status: .ok, since: AlertFixtures.now + 2, evaluatedAt: AlertFixtures.now + 2)
                #expect(try await store.recordAlertFiring(AlertFixtures.firing("f2", of: rule, key: "k"), state: ok) == false)
                // Then the first one and its state are kept
                #expect(try await store.alertFirings(ruleID: nil, limit: 10) == [AlertFixtures.firing("f1", of: rule, key: "k")])
                #expect(try await store.alertStates() == [rule.id: firing])
                // And marking an evaluation changes the time only; deleting the rule removes its state, not its history
                try await store.markAlertEvaluated(ruleID: rule.id, at: AlertFixtures.now + 9)
                #expect(
                    try await store.alertStates()[rule.id]
                        == AlertRuleState(ruleID: rule.id, status: .firing, since: AlertFixtures.now + 1, evaluatedAt: AlertFixtures.now + 9))
                try await store.markAlertEvaluated(ruleID: "other", at: AlertFixtures.now + 9)
                #expect(
                    try await store.alertStates()["other"]
                        == AlertRuleState(ruleID: "other", status: .ok, since: AlertFixtures.now + 9, evaluatedAt: AlertFixtures.now + 9))
                #expect(try await store.deleteAlertRule(id: rule.id))
                #expect(try await store.alertStates()[rule.id] == nil)
                #expect(try await store.alertFirings(ruleID: rule.id, limit: 10).count == 1)
            }
        }
    }

    @Test(arguments: StorageKind.available)
    func firingsRecordedAtOnceWithTheSameKeyAreRecordedOnce(kind: StorageKind) async throws {
        try await TestStorage.with(kind) { database in
            try await database.withStore { store throws in
                // When 20 firings, two per dedupe key, are recorded at once
                let recorded = try await Self.recordAtOnce(20, into: [store])
                // Then each key was new exactly once, and stored once
                #expect(recorded == 10)
                #expect(try await store.alertFirings(ruleID: nil, limit: 100).count == 10)
            }
        }
    }

    /// Records `count` firings at once, two per dedupe key, spread over `stores`.
    /// - Returns: how many were new.
    static func recordAtOnce(_ count: Int, into stores: [any AlertStorage]) async throws -> Int {
        let rule = AlertFixtures.rule()
        return try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<count {
                let store = stores[index % stores.count]
                group.addTask { try await store.recordAlertFiring(AlertFixtures.firing("f\(index)", of: rule, key: "k\(index / 2)"), state: nil) }
            }
            return try await group.reduce(into: 0) { new, isNew in new += isNew ? 1 : 0 }
        }
    }

    @Test(arguments: StorageKind.available)
    func firingsAreNewestFirstLimitedAndByRuleWithTheirDelivery(kind: StorageKind) async throws {
        try await TestStorage.with(kind) { database in
            try await database.withStore { store throws in
                let a = AlertFixtures.rule("a")
                let b = AlertFixtures.rule("b")
                // Given firings at three times, two of them at the same time
                for (id, rule, time) in [
                    ("1", a, AlertFixtures.now), ("2", b, AlertFixtures.now + 5), ("3", a, AlertFixtures.now + 5), ("4", a, AlertFixtures.now + 1),
                ] {
                    #expect(try await store.recordAlertFiring(AlertFixtures.firing(id, of: rule, key: id, time: time), state: nil))
                }
                // Then they come newest first (then last recorded first), limited, and by rule
                #expect(try await store.alertFirings(ruleID: nil, limit: 10).map(\.id) == ["3", "2", "4", "1"])
                #expect(try await store.alertFirings(ruleID: nil, limit: 2).map(\.id) == ["3", "2"])
                #expect(try await store.alertFirings(ruleID: "a", limit: 10).map(\.id) == ["3", "4", "1"])
                // And a delivery's outcome is recorded on its firing
                let failed = AlertDelivery(status: .failed, attempts: 5, lastError: "the webhook answered 503", responseStatus: 503)
                try await store.updateAlertDelivery(firingID: "4", failed)
                #expect(try await store.alertFirings(ruleID: "a", limit: 10).map(\.delivery)[1] == failed)
                let delivered = AlertDelivery(status: .delivered, attempts: 1, responseStatus: 204)
                try await store.updateAlertDelivery(firingID: "4", delivered)
                #expect(try await store.alertFirings(ruleID: "a", limit: 10).map(\.delivery)[1] == delivered)
            }
        }
    }

    @Test(arguments: StorageKind.available)
    func theEvaluationClaimGoesToOneHolderUntilItExpires(kind: StorageKind) async throws {
        try await TestStorage.with(kind) { database in
            try await database.withStore { store throws in
                let now = AlertFixtures.now
                #expect(try await store.claimAlertEvaluation(holder: "a", now: now, until: now + 100))
                #expect(try await store.claimAlertEvaluation(holder: "b", now: now + 50, until: now + 150) == false)
                // The holder renews its own claim; another takes it once it expired
                #expect(try await store.claimAlertEvaluation(holder: "a", now: now + 60, until: now + 160))
                #expect(try await store.claimAlertEvaluation(holder: "b", now: now + 159, until: now + 259) == false)
                #expect(try await store.claimAlertEvaluation(holder: "b", now: now + 160, until: now + 260))
                #expect(try await store.claimAlertEvaluation(holder: "a", now: now + 200, until: now + 300) == false)
            }
        }
    }
}
