/// What storing a batch did: the response body of an upload.
public struct StoreOutcome: Sendable, Hashable {
    /// Records stored for the first time.
    public var stored: Int
    /// Records not stored because their `(namespace, reportID)` was already stored.
    public var duplicates: Int

    /// Creates an outcome.
    public init(stored: Int, duplicates: Int) {
        self.stored = stored
        self.duplicates = duplicates
    }
}
