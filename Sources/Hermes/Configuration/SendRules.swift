import HermesWire

/// A namespace's configuration as `send` reads it, made once each time the configuration in
/// force changes: `send` takes one reference under the configuration's lock instead of copying
/// the whole configuration, and finds its type with the stored type (`<namespace>-<type>`) and
/// the text check of the type and the namespace already made.
final class SendRules: Sendable {
    /// One record type of the namespace's `monitorList`, ready for `send`.
    struct TypeRule: Sendable {
        let item: MonitorItem
        /// The type as stored (`MONITOR_TYPE`): ``RecordNamespace/storedType(_:in:)``.
        let storedType: String
        /// Why the type may not be stored (``CheckedText``), or `nil` when it may.
        let problem: HermesWireError?
    }

    let configuration: NamespaceConfiguration
    /// Whether the namespace is a business namespace (``RecordNamespace/isBusiness(_:)``).
    let isBusiness: Bool
    /// Why the namespace's name may not be stored (``CheckedText``), or `nil` when it may.
    let namespaceProblem: HermesWireError?
    /// The `monitorList` in order: a type listed twice is found at its first entry, as
    /// ``NamespaceConfiguration/monitorItem(for:)`` finds it. A list of a few short names is
    /// searched faster than a hashed one.
    private let types: [TypeRule]

    init(namespace: String, configuration: NamespaceConfiguration) {
        self.configuration = configuration
        isBusiness = RecordNamespace.isBusiness(namespace)
        namespaceProblem = CheckedText.problem(namespace, name: "prefix")
        types = configuration.monitorList.map { item in
            TypeRule(
                item: item, storedType: RecordNamespace.storedType(item.type, in: namespace),
                problem: CheckedText.problem(item.type, name: "type"))
        }
    }

    /// The rule for `type`, or `nil` when the namespace does not accept it.
    func rule(for type: String) -> TypeRule? {
        types.first { $0.item.type == type }
    }
}
