import GRDB
@testable import Hermes
import HermesWire
import Testing

struct HousekeepingPlanTests {
    static let keeping: ConfigurationDocument = {
        var hermes = NamespaceConfiguration.hermesDefault
        hermes.isUpdateClear = false
        hermes.expirationDay = 30
        return ConfigurationDocument(revision: 2, namespaces: ["hermes": hermes])
    }()

    @Test func theServersWordSetsEachNamespacesRuleAndExpiresOrphans() {
        var configurations = NamespaceRegistry(registered: ["JZ": Harness.jz])
        _ = configurations.apply(Self.keeping)
        let plan = HousekeepingPlan(configurations: configurations, isServerWord: true)
        #expect(
            plan.rules == [
                "hermes": HousekeepingRule(
                    isUpdateClear: false, expirationDays: 30, maxBodyBytes: 1_048_576,
                    monitoredTypes: NamespaceConfiguration.hermesDefault.monitorList.map(\.type)),
                "JZ": HousekeepingRule(isUpdateClear: true, expirationDays: 15, maxBodyBytes: 1_048_576, monitoredTypes: ["JZ-pay", "JZ-view"]),
            ])
        #expect(
            plan.rules(stored: ["JZ", "KX"])["KX"]
                == HousekeepingRule(
                    isUpdateClear: false, expirationDays: 15, maxBodyBytes: nil, expiryReason: .orphaned))
        #expect(plan.rules(stored: ["JZ", "KX"])["JZ"] == plan.rules["JZ"])
    }

    @Test func withoutTheServersWordNoRowIsDeletedOnAGuess() {
        let plan = HousekeepingPlan(configurations: NamespaceRegistry(registered: ["JZ": Harness.jz]), isServerWord: false)
        #expect(plan.rules.values.allSatisfy { !$0.isUpdateClear })
        #expect(plan.rules["hermes"]?.expirationDays == 15)
        #expect(plan.rules(stored: ["JZ", "KX"]).keys.sorted() == ["JZ", "hermes"])
    }

    @Test func anOrphanedRuleOnlyExpires() throws {
        let deletions = HousekeepingRule.orphaned.deletions(now: 20 * 86_400_000, appVersion: "1.0")
        #expect(deletions.map(\.0) == [.orphaned])
        #expect(deletions.map(\.1) == ["created_time < ?"])
        #expect(deletions.first?.2 == [5 * 86_400_000])
    }

    @Test func anExpiredRowOfATypeTheServerNoLongerListsCountsAsUnmonitored() {
        let rule = HousekeepingRule(isUpdateClear: false, expirationDays: 15, maxBodyBytes: nil, monitoredTypes: ["JZ-pay"])
        let deletions = rule.deletions(now: 20 * 86_400_000, appVersion: "1.0")
        #expect(deletions.map(\.0) == [.unmonitored, .expired])
        #expect(deletions.first?.2 == [5 * 86_400_000, #"["JZ-pay"]"#])
    }
}
