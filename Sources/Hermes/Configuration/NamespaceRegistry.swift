import HermesWire

/// The effective configuration of each namespace, by specification §3's precedence: the server's (or
/// the cached) document, then the built-in `hermes` default or the app's registered default.
struct NamespaceRegistry: Sendable {
    /// The last good document from the server or the cache, clamped.
    private(set) var document: ConfigurationDocument?
    /// The built-in `hermes` default and the app's registered defaults, clamped.
    private let defaults: [String: NamespaceConfiguration]
    /// Each namespace's configuration in force as `send` reads it, made again by each document.
    private var rules: [String: SendRules] = [:]

    /// - Parameter registered: the app's local defaults for business namespaces.
    init(registered: [String: NamespaceConfiguration]) {
        var defaults = registered.mapValues { $0 }
        defaults[ConfigurationDocument.hermesNamespace] = defaults[ConfigurationDocument.hermesNamespace] ?? .hermesDefault
        self.defaults = defaults.reduce(into: [:]) { result, entry in
            result[entry.key] = entry.value.clamped(namespace: entry.key).0
        }
        rules = makeRules()
    }

    /// The configuration `namespace` runs under, or `nil` when nothing configures it.
    func configuration(for namespace: String) -> NamespaceConfiguration? {
        rules[namespace]?.configuration
    }

    /// The configuration `namespace` runs under as `send` reads it, or `nil` when nothing
    /// configures it.
    func sendRules(for namespace: String) -> SendRules? {
        rules[namespace]
    }

    /// Every namespace that has a configuration.
    var namespaces: Set<String> {
        Set(defaults.keys).union(document?.namespaces.keys ?? [:].keys)
    }

    /// The revision of the document in force (0 for the built-in one).
    var revision: Int { document?.revision ?? 0 }

    /// Applies a new clamped document; returns the namespaces whose configuration changed.
    mutating func apply(_ newDocument: ConfigurationDocument) -> Set<String> {
        let before = Dictionary(uniqueKeysWithValues: namespaces.map { ($0, configuration(for: $0)) })
        document = newDocument
        rules = makeRules()
        let after = namespaces.union(before.keys)
        return after.filter { before[$0] ?? nil != configuration(for: $0) }
    }

    /// The precedence, applied once per document.
    private func makeRules() -> [String: SendRules] {
        namespaces.reduce(into: [:]) { rules, namespace in
            if let configuration = document?.namespaces[namespace] ?? defaults[namespace] {
                rules[namespace] = SendRules(namespace: namespace, configuration: configuration)
            }
        }
    }
}
