/// A crash group as alerts see it: what ``AlertSignals/newCrashGroups(since:)`` returns and a
/// `newCrashGroup` firing carries.
public struct AlertCrashGroup: Sendable, Hashable, Codable {
    /// The group's stable signature; one firing per signature and rule, ever.
    public var signature: String
    /// The group's title for people (the exception and where it happened).
    public var title: String

    /// Creates a group.
    /// - Parameters:
    ///   - signature: the group's stable signature.
    ///   - title: the group's title for people.
    public init(signature: String, title: String) {
        self.signature = signature
        self.title = title
    }
}
