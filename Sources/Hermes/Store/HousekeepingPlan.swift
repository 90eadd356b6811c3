import HermesWire

/// What start-up housekeeping deletes (specification §5), decided from the configurations the
/// server last gave (``ConfigurationService/housekeepingConfigurations()``).
///
/// When the server's word is not known (no version of the app ever cached a document and the
/// first fetch brought none), rows are never deleted on a guess: rows of other app versions and
/// of namespaces nothing configures are kept until a document arrives; expiry and size rules of
/// the namespaces configured locally still apply.
struct HousekeepingPlan: Sendable, Equatable {
    /// The rule of each configured namespace.
    var rules: [String: HousekeepingRule]
    /// The rule for namespaces that hold rows but no configuration names; `nil` keeps their rows.
    var orphans: HousekeepingRule?

    /// - Parameters:
    ///   - configurations: the configuration of each namespace.
    ///   - isServerWord: they are the server's (or, without a configuration URL, the app's own).
    init(configurations: NamespaceRegistry, isServerWord: Bool) {
        rules = configurations.namespaces.reduce(into: [:]) { rules, name in
            guard let configuration = configurations.configuration(for: name) else { return }
            rules[name] = HousekeepingRule(
                isUpdateClear: isServerWord && configuration.isUpdateClear,
                expirationDays: configuration.expirationDay,
                maxBodyBytes: configuration.maxBodyBytes,
                monitoredTypes: isServerWord ? configuration.monitorList.map { RecordNamespace.storedType($0.type, in: name) } : nil
            )
        }
        orphans = isServerWord ? .orphaned : nil
    }

    /// The rule of each namespace among `stored` (the namespaces holding rows) and the configured ones.
    func rules(stored: some Sequence<String>) -> [String: HousekeepingRule] {
        guard let orphans else { return rules }
        return stored.reduce(into: rules) { rules, namespace in
            if rules[namespace] == nil { rules[namespace] = orphans }
        }
    }
}
