extension AlertFiring {
    /// The payload as a store keeps it: the JSON text a delivery sends.
    package var storedPayload: String { String(decoding: payload.jsonBytes(), as: UTF8.self) }

    /// A firing read from a store's row.
    /// - Parameters:
    ///   - storedPayload: the payload's JSON text.
    ///   - deliveryStatus: ``AlertDelivery/Status``'s raw value.
    /// - Throws: ``CollectorError/Code/storageFailed`` if the payload or the status is unreadable.
    package init(
        storedPayload: String, dedupeKey: String, deliveryStatus: String, attempts: Int, lastError: String?, responseStatus: Int?
    ) throws(CollectorError) {
        guard let status = AlertDelivery.Status(rawValue: deliveryStatus) else {
            throw CollectorError(.storageFailed, "a stored alert firing has the unknown delivery status \(deliveryStatus)")
        }
        self.init(
            payload: try AlertPayload(jsonBytes: Array(storedPayload.utf8)), dedupeKey: dedupeKey,
            delivery: AlertDelivery(status: status, attempts: attempts, lastError: lastError, responseStatus: responseStatus))
    }
}
