/// The verdict of a torture run: which numbered records the collector holds, against the ones
/// the app had accepted and the ones `flush()` had confirmed durable.
struct DeliveryAudit: Equatable {
    /// Records `flush()` confirmed.
    var confirmed: Int
    /// Distinct records the collector stored.
    var stored: Int
    /// Confirmed records the collector does not hold: a broken promise.
    var lostConfirmed: Int
    /// Extra copies of a record at the collector: a broken promise.
    var duplicates: Int
    /// Records accepted by `send` but not yet confirmed when the app died, and never stored:
    /// the loss the promise allows.
    var lostUnconfirmed: Int

    /// - Parameters:
    ///   - accepted: numbers `send` accepted.
    ///   - confirmed: numbers `flush()` confirmed (a subset of `accepted`).
    ///   - stored: copies stored at the collector, per number.
    init(accepted: Set<Int64>, confirmed: Set<Int64>, stored: [Int64: Int]) {
        self.confirmed = confirmed.count
        self.stored = stored.count
        lostConfirmed = confirmed.filter { stored[$0] == nil }.count
        duplicates = stored.values.reduce(0) { $0 + $1 - 1 }
        lostUnconfirmed = accepted.subtracting(confirmed).filter { stored[$0] == nil }.count
    }

    /// Whether the delivery promise held.
    var kept: Bool { lostConfirmed == 0 && duplicates == 0 }
}
