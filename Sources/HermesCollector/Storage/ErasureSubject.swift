/// Whose records an erasure removes (``CollectorStorage/erase(_:)``).
public enum ErasureSubject: Sendable, Hashable {
    /// The records whose meta's `USER_ID` is this string (the `user_id` column).
    case user(String)
    /// The records that uploads with this `X-Hermes-Device-Id` brought (the `device_id` column;
    /// the SDK sends its `DEVICE_ID` there).
    case device(String)

    /// `user` or `device`, for answers and logs.
    public var kind: String {
        switch self {
        case .user: "user"
        case .device: "device"
        }
    }

    /// The user's or the device's id.
    public var id: String {
        switch self {
        case .user(let id), .device(let id): id
        }
    }

    /// The column of `events` and `crash_members` that holds the id.
    package var column: String {
        switch self {
        case .user: "user_id"
        case .device: "device_id"
        }
    }
}
