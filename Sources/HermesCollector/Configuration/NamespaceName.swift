/// The one rule for the namespace names the collector's APIs take, in the console and in the
/// admin API alike: 1 to 64 ASCII letters, digits, `-`, `_` or `.`.
enum NamespaceName {
    /// The `name` path parameter of a namespace route, checked.
    /// - Throws: ``CollectorError/Code/invalidQuery`` for a missing name or one outside the rule.
    static func checked(_ name: String?) throws(CollectorError) -> String {
        guard let name, name.isConsoleName(allowing: "-_.") else {
            throw CollectorError(.invalidQuery, "a namespace name is 1 to 64 letters, digits, '-', '_' or '.'")
        }
        return name
    }
}
