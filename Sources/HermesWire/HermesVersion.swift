/// The version of Hermes, kept in this one place: the SDK reports it as `SDK_VERSION` in every
/// record, and `hermes --version` prints it. Raised with each release (see CHANGELOG.md).
public enum HermesVersion: Sendable {
    /// The current version, `MAJOR.MINOR.PATCH`.
    public static let current = "0.1.0"
}
