/// The rule that merges a caller's meta with the common fields Hermes adds (specification §4).
public enum RecordMeta: Sendable {
    /// Merges the caller's meta with the common fields.
    ///
    /// Common fields win over the caller's fields of the same name, with one exception: for
    /// `appCrash` the caller's fields win, because a crash is reported in a later run and its
    /// facts (time, app and OS version) belong to the run that crashed. The identity fields
    /// (``RecordField/identity``: report id, type, business flag, namespace) always come from
    /// `common`, so a record can never be routed or deduplicated under someone else's name.
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
        for field in RecordField.identity {
            merged[field] = common[field]
        }
        return merged
    }
}
