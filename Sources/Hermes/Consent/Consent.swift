/// The user's choice about data collection, kept across launches (``HermesClient/setConsent(_:)``).
///
/// Consent is per client: it covers every namespace, the `hermes` monitoring namespace too,
/// since every record carries the installation's and the user's identifiers.
public enum Consent: String, Sendable, Hashable, Codable, CaseIterable {
    /// Records are stored and uploaded.
    case granted
    /// Records are stored but no upload round runs; granting consent uploads them.
    case pending
    /// `send` rejects with ``HermesError/Code/consentDenied`` and nothing is stored; the rows
    /// stored before are deleted (counted as ``LossReason/consentDenied``).
    case denied
}
