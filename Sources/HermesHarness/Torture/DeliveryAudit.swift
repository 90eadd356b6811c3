/// The verdict of a torture run: which numbered records the collector holds, against the ones
/// `send` accepted and the ones `flush()` confirmed durable. The promise: a record `send`
/// accepted reaches the collector and is stored exactly once.
package struct DeliveryAudit: Equatable {
    /// Records `send` accepted.
    package var accepted: Int
    /// Records `flush()` confirmed.
    package var confirmed: Int
    /// Distinct records the collector stored (including records whose `send` had not
    /// returned when the app died, which the audit neither requires nor counts as lost).
    package var stored: Int
    /// Accepted records the collector does not hold: a broken promise.
    package var lostAccepted: Int
    /// Of ``lostAccepted``, the records `flush()` had confirmed durable.
    package var lostConfirmed: Int
    /// Extra copies of a record at the collector: a broken promise.
    package var duplicates: Int

    /// - Parameters:
    ///   - accepted: numbers `send` accepted.
    ///   - confirmed: numbers `flush()` confirmed (a subset of `accepted`).
    ///   - stored: copies stored at the collector, per number.
    package init(accepted: Set<Int64>, confirmed: Set<Int64> = [], stored: [Int64: Int]) {
        self.accepted = accepted.count
        self.confirmed = confirmed.count
        self.stored = stored.count
        lostAccepted = accepted.filter { stored[$0] == nil }.count
        lostConfirmed = confirmed.filter { stored[$0] == nil }.count
        duplicates = stored.values.reduce(0) { $0 + $1 - 1 }
    }

    /// Whether the delivery promise held.
    package var kept: Bool { lostAccepted == 0 && lostConfirmed == 0 && duplicates == 0 }
}
