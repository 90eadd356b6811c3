public import Logging
public import ServiceLifecycle

/// Evaluates the enabled alert rules at start and then every interval, records each firing
/// once, logs it and delivers it to the rule's webhook, until graceful shutdown.
///
/// Collectors sharing a store take turns: a pass starts by claiming the evaluation for four
/// intervals (``AlertStorage/claimAlertEvaluation(holder:now:until:)``), renewed at each pass,
/// so one instance evaluates while it runs and another takes over within four intervals after
/// it stops. Should two evaluate the same state anyway, the firing's dedupe key records it once
/// and only the instance that recorded it delivers it.
///
/// A rule fires once when its condition begins to hold and resolves once when it stops; a
/// `newCrashGroup` rule fires once per new group. Each firing is logged as a warning (the rule,
/// kind, state and value; never record contents) and, when the rule has a webhook, delivered
/// (``WebhookDelivery``, the outcome recorded on the firing) before the pass ends.
///
/// ```swift
/// let evaluator = AlertEvaluator(storage: storage, signals: StorageAlertSignals(storage: storage), logger: logger)
/// let group = ServiceGroup(services: [app, evaluator], logger: logger)
/// ```
public struct AlertEvaluator: Service {
    private let storage: any AlertStorage
    private let signals: any AlertSignals
    private let delivery: WebhookDelivery
    private let interval: Duration
    /// How long a claim of the evaluation lasts: four intervals, in milliseconds.
    private let claimMilliseconds: Int64
    private let wallClock: @Sendable () -> Int64
    private let logger: Logger
    /// This evaluator's id in the evaluation claim.
    private let holder: String

    /// Creates an evaluator.
    /// - Parameters:
    ///   - storage: the rules, their state and history.
    ///   - signals: what the rules measure.
    ///   - delivery: how firings reach webhooks.
    ///   - interval: the time between passes (default 30 s).
    ///   - wallClock: milliseconds since 1970 (the system's clock by default).
    ///   - logger: where firings and failures are logged.
    public init(
        storage: any AlertStorage, signals: any AlertSignals, delivery: WebhookDelivery = WebhookDelivery(), interval: Duration = .seconds(30),
        wallClock: @escaping @Sendable () -> Int64 = CollectorConfiguration.systemWallClock, logger: Logger
    ) {
        self.storage = storage
        self.signals = signals
        self.delivery = delivery
        self.interval = interval
        let claim = (interval * 4).components
        claimMilliseconds = claim.seconds * 1_000 + claim.attoseconds / 1_000_000_000_000_000
        self.wallClock = wallClock
        self.logger = logger
        var generator = SystemRandomNumberGenerator()
        holder = Hex.random(bytes: 16, using: &generator)
    }

    public func run() async throws {
        await runPeriodically(every: interval, wallClock: wallClock) { await pass(now: $0) }
    }

    /// One pass at `now`: claims the evaluation, evaluates every enabled rule and delivers what
    /// fired. A failure is logged and the pass (or the rule) is tried again at the next one.
    /// - Parameter now: milliseconds since 1970.
    /// - Returns: the firings this pass recorded, with their delivery outcomes; none when another
    ///   instance holds the claim.
    @discardableResult
    public func pass(now: Int64) async -> [AlertFiring] {
        do {
            guard try await storage.claimAlertEvaluation(holder: holder, now: now, until: now + claimMilliseconds) else { return [] }
        } catch {
            logger.error("could not claim the alert evaluation; trying again at the next pass", metadata: ["error": "\(error)"])
            return []
        }
        return await deliver(await evaluate(now: now))
    }

    /// Evaluates every enabled rule at `now` and records what fired, without claiming the
    /// evaluation or delivering.
    /// - Parameter now: milliseconds since 1970.
    /// - Returns: the firings recorded (new ones only), each with its rule.
    package func evaluate(now: Int64) async -> [(rule: AlertRule, firing: AlertFiring)] {
        let rules: [AlertRule]
        let states: [String: AlertRuleState]
        do {
            rules = try await storage.alertRules().filter(\.isEnabled)
            states = try await storage.alertStates()
        } catch {
            logger.error("could not read the alert rules; trying again at the next pass", metadata: ["error": "\(error)"])
            return []
        }
        var recorded: [(rule: AlertRule, firing: AlertFiring)] = []
        for rule in rules {
            do {
                recorded += try await evaluate(rule, state: states[rule.id] ?? AlertRuleState(never: rule), now: now)
            } catch {
                logger.error(
                    "could not evaluate an alert rule; trying again at the next pass", metadata: ["rule_id": "\(rule.id)", "error": "\(error)"])
            }
        }
        return recorded
    }

    private func evaluate(_ rule: AlertRule, state: AlertRuleState, now: Int64) async throws -> [(rule: AlertRule, firing: AlertFiring)] {
        let observation = try await observe(rule.kind, since: AlertEvaluation.since(rule: rule, state: state, now: now))
        var recorded: [(rule: AlertRule, firing: AlertFiring)] = []
        var generator = SystemRandomNumberGenerator()
        for transition in AlertEvaluation.transitions(rule: rule, state: state, observation: observation, now: now) {
            let payload = AlertPayload(
                id: Hex.random(bytes: 16, using: &generator), rule: rule, state: transition.event, value: transition.value,
                crashGroup: transition.crashGroup, time: now)
            let firing = AlertFiring(
                payload: payload, dedupeKey: transition.dedupeKey, delivery: AlertDelivery(status: rule.webhookURL == nil ? .skipped : .pending))
            guard try await storage.recordAlertFiring(firing, state: transition.next) else { continue }
            logger.warning(
                "alert \(transition.event.rawValue)",
                metadata: [
                    "rule_id": "\(rule.id)", "rule": "\(rule.name)", "kind": "\(rule.kind.name)", "value": "\(transition.value)",
                    "threshold": "\(rule.kind.threshold.map(String.init) ?? "-")",
                ])
            recorded.append((rule, firing))
        }
        try await storage.markAlertEvaluated(ruleID: rule.id, at: now)
        return recorded
    }

    private func observe(_ kind: AlertKind, since: Int64) async throws -> AlertEvaluation.Observation {
        switch kind {
        case .newCrashGroup: .newGroups(try await signals.newCrashGroups(since: since))
        case .crashRate: .count(try await signals.crashCount(since: since))
        case .silence(let namespace, _): .count(try await signals.recordCount(namespace: namespace, since: since))
        case .rejections: .count(try await signals.rejectionCount(since: since))
        }
    }

    /// Delivers the firings whose rule has a webhook, all at once, and records each outcome.
    private func deliver(_ recorded: [(rule: AlertRule, firing: AlertFiring)]) async -> [AlertFiring] {
        await withTaskGroup(of: (Int, AlertFiring).self) { group in
            for (index, (rule, firing)) in recorded.enumerated() {
                group.addTask {
                    guard let url = rule.webhookURL else { return (index, firing) }
                    var delivered = firing
                    delivered.delivery = await delivery.deliver(firing.payload, to: url, secret: rule.secret)
                    do {
                        try await storage.updateAlertDelivery(firingID: firing.id, delivered.delivery)
                    } catch {
                        logger.error("could not record an alert delivery", metadata: ["firing_id": "\(firing.id)", "error": "\(error)"])
                    }
                    return (index, delivered)
                }
            }
            var firings = recorded.map(\.firing)
            for await (index, firing) in group { firings[index] = firing }
            return firings
        }
    }
}
