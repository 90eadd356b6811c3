/// The rule that merges a caller's meta with the common fields Hermes adds (specification §4).
public enum RecordMeta: Sendable {
    /// Merges the caller's meta with the common fields.
    ///
    /// Common fields win over the caller's fields of the same name, with one exception: for
    /// `appCrash` the caller's fields win, because a crash is reported in a later run and its
    /// facts (app and OS version, device) belong to the run that crashed. The fields the
    /// collector checks (``RecordCheck/checkedFields``: report id, namespace, type, business
    /// flag, `CREATE_TIME`) always come from `common`, so a caller can neither route a record
    /// under someone else's name nor make it invalid. A crash's own time goes in a field of the
    /// caller's (e.g. `crashTime`); `CREATE_TIME` is when Hermes took the record.
    ///
    /// ```swift
    /// let meta = RecordMeta.merge(user: ["APP_VERSION": "1.0"], common: common, type: "appCrash")
    /// // meta["APP_VERSION"] == "1.0" — the crashed run's version
    /// ```
    /// - Parameters:
    ///   - user: the meta the caller passed to `send`.
    ///   - common: the common fields for this record.
    ///   - type: the type the caller passed to `send` (without a namespace prefix).
    /// - Returns: the merged meta.
    public static func merge(user: [String: JSONValue], common: [String: JSONValue], type: String) -> [String: JSONValue] {
        guard type == MonitorType.appCrash else {
            return user.merging(common) { _, commonValue in commonValue }
        }
        var merged = common.merging(user) { _, userValue in userValue }
        for field in RecordCheck.checkedFields {
            merged[field] = common[field]
        }
        return merged
    }
}
