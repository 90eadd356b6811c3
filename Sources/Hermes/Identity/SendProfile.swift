import HermesWire

/// What `send` reads about the user, the session, consent, global properties and hooks: an
/// immutable snapshot, swapped whole when one of them changes, with the common fields already
/// encoded (one ``RecordBuilder`` per set of global properties).
final class SendProfile: Sendable {
    /// The settings the snapshot is made of.
    struct Settings: Sendable {
        var identity: RecordIdentity
        var consent: Consent
        /// Global properties of every namespace.
        var properties: [String: JSONValue] = [:]
        /// Global properties of one namespace, over the client's.
        var namespaceProperties: [String: [String: JSONValue]] = [:]
        var hooks: [RecordHook] = []
        var namespaceHooks: [String: [RecordHook]] = [:]
    }

    let settings: Settings
    private let builder: RecordBuilder
    private let namespaceBuilders: [String: RecordBuilder]
    /// The client's hooks followed by the namespace's, for namespaces that have their own.
    private let namespaceHooks: [String: [RecordHook]]

    /// - Parameter base: the client's builder (app and device fields).
    init(_ settings: Settings, base: RecordBuilder) {
        self.settings = settings
        builder = base.with(identity: settings.identity, properties: settings.properties)
        namespaceBuilders = settings.namespaceProperties.mapValues { own in
            base.with(identity: settings.identity, properties: settings.properties.merging(own) { _, namespaceValue in namespaceValue })
        }
        namespaceHooks = settings.namespaceHooks.mapValues { settings.hooks + $0 }
    }

    /// The common fields every record gets now (the client's builder: the app, the device, the
    /// identity).
    var commonFields: [String: JSONValue] { builder.commonFields }

    /// Builds `input` with the builder of its namespace (its global properties and the
    /// identity encoded); see ``RecordBuilder/build(_:rules:draw:now:reportID:)``.
    func build(
        _ input: RecordBuilder.Input, rules: SendRules?, draw: () -> Double, now: Int64, reportID: String
    ) throws(HermesError) -> RecordBuilder.Built {
        if !namespaceBuilders.isEmpty, let own = namespaceBuilders[input.namespace] {
            return try own.build(input, rules: rules, draw: draw, now: now, reportID: reportID)
        }
        return try builder.build(input, rules: rules, draw: draw, now: now, reportID: reportID)
    }

    /// The hooks a record of `namespace` runs through, in order.
    func hooks(for namespace: String) -> [RecordHook] {
        namespaceHooks.isEmpty ? settings.hooks : namespaceHooks[namespace] ?? settings.hooks
    }
}
