import Foundation
import HermesWire
import Hummingbird
import Logging

/// Alert rules and their history: read by viewers, changed and tested by editors.
/// - `GET /console/api/alerts`: the rules (with their signing secrets for editors and admins;
///   a viewer gets none), each rule's state, and the 100 newest firings;
/// - `POST /console/api/alerts` (an ``AlertRuleDraft`` as JSON): makes a rule;
/// - `PUT /console/api/alerts/{id}`, `DELETE /console/api/alerts/{id}`;
/// - `POST /console/api/alerts/{id}/test`: sends the rule's webhook a test payload now and
///   answers how the delivery went.
struct ConsoleAlertRoutes {
    let gate: ConsoleGate
    let storage: any AlertStorage
    let delivery: WebhookDelivery
    let logger: Logger

    func register(on router: some RouterMethods<BasicRequestContext>) {
        let editor = AlertRuleEditor(storage: storage, wallClock: gate.wallClock)
        router.get("/console/api/alerts") { request, _ -> Response in
            let session = try await gate.require(.viewer, request)
            return try Self.json(
                AlertPage(
                    rules: try await storage.alertRules(), states: try await storage.alertStates(),
                    history: try await storage.alertFirings(ruleID: nil, limit: 100)),
                hidingSecrets: !session.role.allows(.editor))
        }
        router.post("/console/api/alerts") { request, _ -> Response in
            let session = try await gate.require(.editor, request)
            let rule = try await editor.create(try await Self.draft(request), by: session.userName)
            logger.info("alert rule made", metadata: ["rule": "\(rule.id)", "kind": "\(rule.kind.name)", "by": "\(session.userName)"])
            return try Self.json(rule)
        }
        router.put("/console/api/alerts/{id}") { request, context -> Response in
            let session = try await gate.require(.editor, request)
            let rule = try await editor.update(id: try Self.id(context), with: try await Self.draft(request), by: session.userName)
            logger.info("alert rule changed", metadata: ["rule": "\(rule.id)", "by": "\(session.userName)"])
            return try Self.json(rule)
        }
        router.delete("/console/api/alerts/{id}") { request, context -> Response in
            let session = try await gate.require(.editor, request)
            let id = try Self.id(context)
            try await editor.delete(id: id)
            logger.info("alert rule removed", metadata: ["rule": "\(id)", "by": "\(session.userName)"])
            return try .json(["removed": .string(id)])
        }
        router.post("/console/api/alerts/{id}/test") { request, context -> Response in
            _ = try await gate.require(.editor, request)
            let id = try Self.id(context)
            guard let rule = try await storage.alertRules().first(where: { $0.id == id }) else {
                throw CollectorError(.alertRuleNotFound, "there is no alert rule \(id)")
            }
            return try Self.json(await delivery.sendTest(rule: rule))
        }
    }

    /// What `GET /console/api/alerts` answers.
    private struct AlertPage: Encodable {
        let rules: [AlertRule]
        let states: [String: AlertRuleState]
        let history: [AlertFiring]
    }

    private static func draft(_ request: Request) async throws -> AlertRuleDraft {
        let body = try await request.bodyBytes(upTo: 64 << 10)
        do {
            return try JSONDecoder().decode(AlertRuleDraft.self, from: Data(body))
        } catch {
            throw CollectorError(.invalidAlertRule, "the body must be an alert rule: name, kind {type, …}, enabled, webhookURL")
        }
    }

    private static func id(_ context: BasicRequestContext) throws(CollectorError) -> String {
        guard let id = context.parameters.get("id"), !id.isEmpty else { throw CollectorError(.invalidQuery, "the path needs a rule id") }
        return id
    }

    /// - Parameter hidingSecrets: leave the rules' signing secrets out (a viewer's answer).
    private static func json(_ value: some Encodable, hidingSecrets: Bool = false) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.userInfo[.hidesAlertSecrets] = hidingSecrets
        return .json(bytes: Array(try encoder.encode(value)))
    }
}
