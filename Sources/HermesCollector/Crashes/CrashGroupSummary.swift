/// One crash group as the console lists it: what names it, and its crashes within a time window.
///
/// ``firstSeen`` is the group's first crash ever grouped (kept after retention removed it), so a
/// new crash stands out; the other figures count the window's crashes only.
public struct CrashGroupSummary: Sendable, Hashable {
    /// The group's key, ``CrashSignature/digest``.
    public var signature: String
    /// ``CrashSignature/title``: `SIGILL in crashProbeIndexesPastTheEnd(…)`.
    public var title: String
    /// ``CrashSignature/culprit``: the top frame of the app's code, or `nil` for crashes without frames.
    public var culprit: String?
    /// How many crash records of the group the window holds.
    public var count: Int
    /// How many users they affected: distinct `USER_ID`s, a crash without one counted by its
    /// `DEVICE_ID`.
    public var usersAffected: Int
    /// The `CREATE_TIME` of the group's first crash ever, in milliseconds since 1970.
    public var firstSeen: Int64
    /// The `CREATE_TIME` of the window's latest crash of the group, in milliseconds since 1970.
    public var lastSeen: Int64
    /// The distinct `APP_VERSION`s of the window's crashes, oldest version first (`1.9` before `1.10`).
    public var appVersions: [String]

    /// Creates a summary.
    public init(
        signature: String, title: String, culprit: String?, count: Int, usersAffected: Int, firstSeen: Int64, lastSeen: Int64,
        appVersions: [String]
    ) {
        self.signature = signature
        self.title = title
        self.culprit = culprit
        self.count = count
        self.usersAffected = usersAffected
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.appVersions = appVersions
    }
}
