/// The one rule for the text a store keeps in a column of its own and compares — a record's
/// `REPORT_ID`, `NAMESPACE` and `MONITOR_TYPE`, a sync device's `clientID`: valid Unicode (the
/// JSON reader refuses invalid UTF-8 and unpaired surrogates) without a NUL character. SQLite's
/// text functions stop at a NUL and PostgreSQL refuses one, so a NUL would make two values equal
/// on one store and fail every time on the other; refused here, it is refused the same on both,
/// for the one record that holds it.
public enum CheckedText: Sendable {
    /// Why `text`, the value of field `name`, may not be stored, or `nil` when it may.
    /// - Returns: ``HermesWireError/Code/invalidText`` naming the field (never the value).
    public static func problem(_ text: String, name: String) -> HermesWireError? {
        text.utf8.contains(0) ? HermesWireError(.invalidText, "\(name) holds a NUL character") : nil
    }
}
