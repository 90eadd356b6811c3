public import HermesWire

extension CollectorStorage {
    /// Loads the saved document (or takes `current` when none was saved), applies `edit`, and
    /// saves the result.
    ///
    /// This default suits a store only one collector writes: the collector runs its changes one
    /// at a time. A store shared by several collectors replaces it with one that holds a lock
    /// across the load and the save.
    public func updateConfiguration(
        from current: ConfigurationDocument,
        _ edit: @Sendable (ConfigurationDocument) throws(CollectorError) -> ConfigurationDocument
    ) async throws -> ConfigurationDocument {
        let next = try edit(try await loadConfiguration() ?? current)
        try await saveConfiguration(next)
        return next
    }

    /// Returns at once: no other collector saves configurations into this store.
    public func watchConfiguration(_ changed: @escaping @Sendable () async -> Void) async throws {}
}
