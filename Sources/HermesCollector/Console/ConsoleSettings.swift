/// How the collector serves its web console (`/console`).
public struct ConsoleSettings: Sendable {
    /// Whether the console is served (default `true`).
    public var isEnabled = true
    /// How long a sign-in lasts (default 12 hours).
    public var sessionLifetime: Duration = .seconds(12 * 3_600)
    /// The bcrypt cost of stored passwords, 4 to 31 (default 12: about a quarter of a second
    /// per sign-in on a small server; each step doubles it).
    public var passwordCost: UInt8 = 12
    /// How many failed sign-ins one address, or one user name, may make in a minute before
    /// the next are refused for that minute (default 5).
    public var signInAttemptsPerMinute = 5
    /// Whether the session cookie is marked `Secure`: `nil` (the default) marks it when the
    /// request came over TLS as a proxy says (`X-Forwarded-Proto: https`).
    public var secureCookie: Bool? = nil
    /// How often an open live tail looks for new records (default 250 ms).
    public var tailInterval: Duration = .milliseconds(250)
    /// How long one live-tail stream lasts before the browser is asked to reconnect (default
    /// 60 s; it goes on where it stopped).
    public var tailStreamLifetime: Duration = .seconds(60)

    /// How often the alert rules are evaluated (by one instance among those sharing a store;
    /// default 30 s).
    public var alertInterval: Duration = .seconds(30)

    /// The defaults.
    public init() {}
}
