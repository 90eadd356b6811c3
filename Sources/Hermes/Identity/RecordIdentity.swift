import Foundation
import HermesWire

/// Who a record is about: the common fields `USER_ID`, `ANON_ID` and `SESSION_ID`.
struct RecordIdentity: Sendable, Hashable {
    /// A UUID made once per installation and again by `reset()`.
    var anonymousID: String
    /// Set by `identify`; `nil` (written as JSON `null`) for an anonymous user.
    var userID: String?
    /// The session in progress.
    var sessionID: String

    /// The three fields as written into the meta.
    var fields: [String: JSONValue] {
        [
            RecordField.anonymousID: .string(anonymousID),
            RecordField.userID: userID.map(JSONValue.string) ?? .null,
            RecordField.sessionID: .string(sessionID),
        ]
    }

    /// A new random id, upper-case UUID text like `DEVICE_ID`.
    static func newID() -> String {
        UUID().uuidString
    }
}
