import Logging

/// Who changes a namespace's configuration and when: what its history keeps.
struct ConfigurationEdit: Sendable {
    /// A console user's name, or `admin-token` for the admin API.
    let author: String
    /// When, in milliseconds since 1970.
    let time: Int64
    /// Where a history entry that cannot be kept is reported.
    let logger: Logger
}
