import Logging

extension HermesClient {
    /// The consent in force, kept across launches.
    public var consent: Consent {
        profiles.profile.settings.consent
    }

    /// Records the user's choice and acts on it at once; logged once per change.
    ///
    /// - ``Consent/granted``: records are stored and uploaded; what waited while consent was
    ///   pending is uploaded now.
    /// - ``Consent/pending``: records are stored; no upload round runs.
    /// - ``Consent/denied``: `send` rejects with ``HermesError/Code/consentDenied``, and every
    ///   stored row (and the journal's copies) is deleted, counted in ``diagnostics()`` as
    ///   ``LossReason/consentDenied``. Returns once they are deleted.
    public func setConsent(_ consent: Consent) async {
        let (old, _) = profiles.update { $0.consent = consent }
        guard old.consent != consent else { return }
        logger.notice("hermes: consent changed", metadata: ["from": "\(old.consent)", "to": "\(consent)"])
        switch consent {
        case .granted:
            engine.triggerAll(.consentGranted)
        case .pending:
            break
        case .denied:
            do {
                _ = try await writer.erase(reason: .consentDenied)
            } catch {
                logger.error("hermes: consent was denied but the stored records could not be deleted now", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Deletes everything this client holds about the user's records: every stored row, the
    /// journal segments, and the cached configuration (the configuration in force stays in
    /// memory until the next fetch). Records accepted before the call are deleted too; records
    /// sent after it are kept as usual. Deleted rows count as ``LossReason/erased``.
    ///
    /// A batch an upload round already sent may still arrive at the collector. The identity is
    /// not touched: call ``reset()`` as well for a new anonymous id.
    /// - Throws: ``HermesError/Code/storeUnavailable`` when the store cannot be written now,
    ///   ``HermesError/Code/shutDown`` after `shutdown()`.
    public func deleteLocalData() async throws {
        _ = try await writer.erase(reason: .erased)
        try configurationService.deleteCache()
    }
}
