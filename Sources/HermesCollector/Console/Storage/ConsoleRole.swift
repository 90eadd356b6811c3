/// What a console user may do. Each role may do everything the ones before it may.
public enum ConsoleRole: String, Sendable, Hashable, CaseIterable, Comparable, Codable {
    /// Reads every page.
    case viewer
    /// Also edits namespaces and alert rules.
    case editor
    /// Also manages console users.
    case admin

    /// Whether a user with this role may do what `required` may.
    public func allows(_ required: ConsoleRole) -> Bool { self >= required }

    public static func < (lhs: ConsoleRole, rhs: ConsoleRole) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
