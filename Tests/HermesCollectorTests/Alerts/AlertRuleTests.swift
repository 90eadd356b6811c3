import Foundation
import HermesCollector
import HTTPTypes
import Testing

struct AlertRuleTests {
    @Test(
        arguments: [
            (AlertRuleDraft(name: " ", kind: .newCrashGroup), "the rule needs a name"),
            (AlertRuleDraft(name: "x", kind: .crashRate(threshold: -1, windowMinutes: 5)), "the threshold must be 0 or more, not -1"),
            (AlertRuleDraft(name: "x", kind: .rejections(threshold: 1, windowMinutes: 0)), "the window must be 1 to 10080 minutes, not 0"),
            (AlertRuleDraft(name: "x", kind: .silence(namespace: "", windowMinutes: 5)), "a silence rule needs a namespace"),
            (
                AlertRuleDraft(name: "x", kind: .newCrashGroup, webhookURL: "ftp://example.com/x"),
                "the webhook URL must be an http:// or https:// URL with a host"
            ),
            (
                AlertRuleDraft(name: String(repeating: "n", count: 201), kind: .newCrashGroup),
                "the name is longer than 200 characters"
            ),
        ])
    func invalidDraftsAreRefusedWithTheirReason(draft: AlertRuleDraft, reason: String) throws {
        let error = #expect(throws: CollectorError.self) { try draft.validate() }
        #expect(error?.code == .invalidAlertRule)
        #expect(error?.message == reason)
        #expect(error?.status == .badRequest)
    }

    @Test func aRuleIsCreatedWithIdAndSecretAndKeepsThemWhenUpdated() throws {
        var generator = SystemRandomNumberGenerator()
        let draft = AlertRuleDraft(name: "Crash spike", kind: .crashRate(threshold: 10, windowMinutes: 5), webhookURL: "https://hooks.example.com/h")
        let rule = try AlertRule.create(draft, by: "ada", at: 7, using: &generator)
        #expect(rule.id.count == 32)
        #expect(rule.secret.count == 64)
        let isHex = rule.secret.allSatisfy(\.isHexDigit)
        #expect(isHex)
        #expect(rule.draft == draft)
        let updated = try rule.updated(with: AlertRuleDraft(name: "Renamed", kind: .newCrashGroup, isEnabled: false), by: "bob", at: 9)
        #expect([updated.id, updated.secret, updated.createdBy, updated.updatedBy] == [rule.id, rule.secret, "ada", "bob"])
        #expect([updated.createdAt, updated.updatedAt] == [7, 9])
        #expect(updated.webhookURL == nil)
    }

    @Test func draftsAndRulesReadAndWriteTheirJSON() throws {
        let draft = try JSONDecoder().decode(
            AlertRuleDraft.self, from: Data(#"{"name":"Quiet shop","kind":{"type":"silence","namespace":"shop","windowMinutes":30}}"#.utf8))
        #expect(draft == AlertRuleDraft(name: "Quiet shop", kind: .silence(namespace: "shop", windowMinutes: 30), isEnabled: true))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let rule = AlertFixtures.rule(kind: .crashRate(threshold: 10, windowMinutes: 5), webhookURL: "https://hooks.example.com/h")
        #expect(
            String(decoding: try encoder.encode(rule), as: UTF8.self)
                == #"{"createdAt":1795400000000,"createdBy":"ada","enabled":true,"id":"rule-1","kind":{"threshold":10,"type":"crashRate","windowMinutes":5},"#
                + #""name":"Rule rule-1","secret":"secret-rule-1","updatedAt":1795400000000,"updatedBy":"ada","webhookURL":"https://hooks.example.com/h"}"#
        )
        #expect(try JSONDecoder().decode(AlertRule.self, from: try encoder.encode(rule)) == rule)
        let unknown = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(AlertKind.self, from: Data(#"{"type":"cpu"}"#.utf8))
        }
        #expect(unknown != nil)
    }

    @Test func theEditorCreatesUpdatesAndDeletesInTheStore() async throws {
        let storage = try SQLiteCollectorStorage.inMemory()
        let editor = AlertRuleEditor(storage: storage, wallClock: { AlertFixtures.now })
        let rule = try await editor.create(AlertRuleDraft(name: "Crashes", kind: .crashRate(threshold: 1, windowMinutes: 1)), by: "ada")
        #expect(try await storage.alertRules() == [rule])
        let updated = try await editor.update(id: rule.id, with: AlertRuleDraft(name: "Crashes!", kind: .newCrashGroup), by: "bob")
        #expect(try await storage.alertRule(id: rule.id) == updated)
        try await editor.delete(id: rule.id)
        #expect(try await storage.alertRules().isEmpty)
        // Unknown ids and invalid drafts
        let missing = await #expect(throws: CollectorError.self) { try await editor.delete(id: rule.id) }
        #expect(missing?.code == .alertRuleNotFound)
        #expect(missing?.message == "no alert rule has the id \(rule.id)")
        #expect(missing?.status == .notFound)
        let invalid = await #expect(throws: CollectorError.self) {
            try await editor.create(AlertRuleDraft(name: "", kind: .newCrashGroup), by: "ada")
        }
        #expect(invalid?.code == .invalidAlertRule)
        #expect(try await storage.alertRules().isEmpty)
    }
}
