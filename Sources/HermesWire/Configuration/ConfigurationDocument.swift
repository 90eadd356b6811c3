/// The whole configuration the server serves: a revision and one entry per namespace (specification §3).
///
/// ```swift
/// let document = try ConfigurationDocument(jsonBytes: body)
/// let (safe, adjustments) = document.clamped()
/// for adjustment in adjustments { logger.warning("\(adjustment)") }
/// ```
public struct ConfigurationDocument: Sendable, Hashable {
    /// Grows with every change on the server; the client sends the one it has (`If-None-Match`).
    public var revision: Int
    /// The configuration of each namespace, by name.
    public var namespaces: [String: NamespaceConfiguration]

    /// Creates a document.
    public init(revision: Int, namespaces: [String: NamespaceConfiguration]) {
        self.revision = revision
        self.namespaces = namespaces
    }

    /// The name of the built-in monitoring namespace.
    public static let hermesNamespace = "hermes"

    /// Revision 0 with the built-in `hermes` namespace only.
    public static let builtIn = ConfigurationDocument(
        revision: 0,
        namespaces: [hermesNamespace: .hermesDefault]
    )

    /// Every value brought into its range, with one adjustment per value that was changed.
    public func clamped() -> (ConfigurationDocument, [ConfigurationAdjustment]) {
        var result = self
        var adjustments: [ConfigurationAdjustment] = []
        for name in namespaces.keys.sorted() {
            let (configuration, changes) = namespaces[name]!.clamped(namespace: name)
            result.namespaces[name] = configuration
            adjustments += changes
        }
        return (result, adjustments)
    }
}
