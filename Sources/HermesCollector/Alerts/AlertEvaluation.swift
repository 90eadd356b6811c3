/// What evaluating one rule decides, without I/O: the pure core of ``AlertEvaluator``.
///
/// A rule with a count goes from ok to firing when its condition begins to hold (one firing)
/// and back to ok when it stops (one resolution); nothing is recorded while it stays. A
/// `newCrashGroup` rule fires once per new group and stays ok. Each transition's dedupe key
/// names the rule, the event and the state it ends (`<rule>:firing:<ok since>`,
/// `<rule>:resolved:<firing since>`), so instances that evaluate the same state at once
/// record it once.
package enum AlertEvaluation {
    /// How far before its last evaluation a `newCrashGroup` rule looks again: 10 minutes, for
    /// groups whose first record was stored late.
    package static let crashGroupOverlap: Int64 = 10 * 60_000

    /// What a rule's signal measured.
    package enum Observation: Sendable, Equatable {
        /// Records or rejections counted over the rule's window.
        case count(Int)
        /// The crash groups first seen since ``since(rule:state:now:)``.
        case newGroups([AlertCrashGroup])
    }

    /// A firing or a resolution to record.
    package struct Transition: Sendable, Equatable {
        /// What makes it the same as another instance's.
        package var dedupeKey: String
        /// Firing or resolved.
        package var event: AlertPayload.State
        /// The count measured, or 1 for a new crash group.
        package var value: Int
        /// The new crash group, for a `newCrashGroup` rule.
        package var crashGroup: AlertCrashGroup?
        /// The rule's state once recorded, or `nil` to leave it.
        package var next: AlertRuleState?
    }

    /// Where the rule's signal starts counting at `now`: the window's start, or for a
    /// `newCrashGroup` rule its last evaluation less ``crashGroupOverlap`` (never before its creation).
    package static func since(rule: AlertRule, state: AlertRuleState, now: Int64) -> Int64 {
        if let windowMinutes = rule.kind.windowMinutes { return now - Int64(windowMinutes) * 60_000 }
        return max(rule.createdAt, state.evaluatedAt - crashGroupOverlap)
    }

    /// Whether `count` makes the rule's condition hold: more than the threshold, or none at all
    /// for a silence rule.
    package static func holds(_ kind: AlertKind, count: Int) -> Bool {
        if case .silence = kind { return count == 0 }
        return count > (kind.threshold ?? .max)
    }

    /// The transitions `observation` makes from `state` at `now`.
    package static func transitions(rule: AlertRule, state: AlertRuleState, observation: Observation, now: Int64) -> [Transition] {
        switch observation {
        case .newGroups(let groups):
            return groups.map { Transition(dedupeKey: "\(rule.id):group:\($0.signature)", event: .firing, value: 1, crashGroup: $0, next: nil) }
        case .count(let count):
            let holding = holds(rule.kind, count: count)
            switch (state.status, holding) {
            case (.ok, true):
                return [transition(rule, from: state, to: .firing, event: .firing, value: count, now: now)]
            case (.firing, false):
                return [transition(rule, from: state, to: .ok, event: .resolved, value: count, now: now)]
            default:
                return []
            }
        }
    }

    private static func transition(
        _ rule: AlertRule, from state: AlertRuleState, to status: AlertRuleState.Status, event: AlertPayload.State, value: Int, now: Int64
    ) -> Transition {
        Transition(
            dedupeKey: "\(rule.id):\(event.rawValue):\(state.since)", event: event, value: value, crashGroup: nil,
            next: AlertRuleState(ruleID: rule.id, status: status, since: now, evaluatedAt: now))
    }
}
