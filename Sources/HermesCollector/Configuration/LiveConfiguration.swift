import HermesWire
import Logging

/// The configuration document the collector serves now, and the only way to change it.
///
/// Changes (and reloads) run one at a time, each saved to the store before it is served, so the
/// revision grows by exactly one per change and a document that failed to save is never served.
/// Collectors sharing a store edit the saved document under the store's lock and reload what
/// the others saved (``ConfigurationWatcher``): all serve the same document for a revision.
actor LiveConfiguration {
    /// The document served now.
    private(set) var document: ConfigurationDocument
    private let storage: any CollectorStorage
    private var isChanging = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    private init(document: ConfigurationDocument, storage: any CollectorStorage) {
        self.document = document
        self.storage = storage
    }

    /// The document saved in `storage`, or `initial` if none was saved, clamped into range.
    static func load(storage: any CollectorStorage, initial: ConfigurationDocument, logger: Logger) async throws(CollectorError) -> LiveConfiguration
    {
        let saved = try await withStorageErrors("load the configuration") { try await storage.loadConfiguration() }
        let (document, adjustments) = (saved ?? initial).clamped()
        for adjustment in adjustments {
            logger.warning("configuration value out of range", metadata: ["adjustment": "\(adjustment)"])
        }
        logger.info(
            "serving configuration",
            metadata: [
                "revision": "\(document.revision)", "source": saved == nil ? "initial" : "store",
            ])
        return LiveConfiguration(document: document, storage: storage)
    }

    /// Sets one namespace's configuration, clamped, as the next revision, and keeps the change
    /// in the history.
    /// - Parameters:
    ///   - ifMatch: the ``NamespaceConfiguration/entityTag`` the editor started from, or `nil`
    ///     to set it whatever it is now.
    ///   - edit: who changed it and when, for the history.
    /// - Returns: the new document and the values clamping changed.
    /// - Throws: ``CollectorError/Code/editConflict`` when the namespace changed since `ifMatch`.
    func setNamespace(
        _ name: String, _ configuration: NamespaceConfiguration, ifMatch: String? = nil, by edit: ConfigurationEdit
    ) async throws(CollectorError) -> (ConfigurationDocument, [ConfigurationAdjustment]) {
        let (clamped, adjustments) = configuration.clamped(namespace: name)
        let document = try await change(name, by: edit) { document throws(CollectorError) in
            if let ifMatch, document.namespaces[name]?.entityTag ?? NamespaceConfiguration.absentTag != ifMatch {
                throw CollectorError(.editConflict, "namespace \(name) was changed by someone else since you opened it")
            }
            document.namespaces[name] = clamped
        }
        return (document, adjustments)
    }

    /// Removes a namespace as the next revision, and keeps the change in the history.
    /// - Throws: ``CollectorError/Code/namespaceNotFound`` if there is no such namespace.
    func removeNamespace(_ name: String, by edit: ConfigurationEdit) async throws(CollectorError) -> ConfigurationDocument {
        try await change(name, by: edit) { document throws(CollectorError) in
            guard document.namespaces.removeValue(forKey: name) != nil else {
                throw CollectorError(.namespaceNotFound, "there is no namespace named \(name)")
            }
        }
    }

    /// Serves the saved document if it differs from the one served: another collector sharing
    /// the store changed it. A store that cannot be read leaves the document served as it is.
    func reload(logger: Logger) async {
        await beginChange()
        defer { endChange() }
        do {
            guard let saved = try await storage.loadConfiguration() else { return }
            let (latest, _) = saved.clamped()
            guard latest != document else { return }
            document = latest
            logger.info("serving configuration", metadata: ["revision": "\(latest.revision)", "source": "store"])
        } catch {
            logger.warning("could not reload the configuration", metadata: ["error": "\(error)"])
        }
    }

    /// Edits one namespace of the saved document and keeps the change in the history (after
    /// the save: a history entry that fails to save is logged, the change stands).
    private func change(
        _ name: String, by edit: ConfigurationEdit, _ apply: @escaping @Sendable (inout ConfigurationDocument) throws(CollectorError) -> Void
    ) async throws(CollectorError) -> ConfigurationDocument {
        let before = SharedSlot<NamespaceConfiguration?>()
        let next = try await change { document throws(CollectorError) in
            before.set(document.namespaces[name])
            try apply(&document)
        }
        let entry = ConfigurationChange(
            namespace: name, revision: next.revision, author: edit.author, changedAt: edit.time, before: before.value??.json,
            after: next.namespaces[name]?.json)
        do {
            try await storage.appendConfigurationChange(entry)
        } catch {
            edit.logger.error("could not keep the configuration change in the history", metadata: ["namespace": "\(name)", "error": "\(error)"])
        }
        return next
    }

    /// Edits the saved document (the served one when none is saved) as the next revision, saved
    /// before it is served; the store keeps other collectors' changes out in between.
    private func change(_ edit: @escaping @Sendable (inout ConfigurationDocument) throws(CollectorError) -> Void) async throws(CollectorError)
        -> ConfigurationDocument
    {
        await beginChange()
        defer { endChange() }
        let next = try await withStorageErrors("save the configuration") { [document, storage] in
            try await storage.updateConfiguration(from: document) { saved throws(CollectorError) in
                var next = saved
                try edit(&next)
                next.revision += 1
                return next
            }
        }
        document = next
        return next
    }
    private func beginChange() async {
        guard isChanging else {
            isChanging = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func endChange() {
        if waiting.isEmpty {
            isChanging = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
