import HermesWire

/// One crash record's membership row: its identity, its group's signature, and what the
/// summaries count (user, device, app version, time).
///
/// Pure: built from a stored record's columns, the same for every store.
package struct CrashMember: Sendable {
    package var namespace: String
    package var reportID: String
    package var createTime: Int64
    package var signature: CrashSignature
    /// The meta's `USER_ID`, or `nil` when absent or empty.
    package var userID: String?
    /// The meta's `DEVICE_ID`, else the upload's device id, or `nil`.
    package var deviceID: String?
    /// The meta's `APP_VERSION`, or `nil`.
    package var appVersion: String?

    /// Reads a stored crash record. A meta that is not a JSON object counts as an empty one: the
    /// record is still grouped, by its stack.
    /// - Parameters:
    ///   - meta: the stored meta line (JSON text).
    ///   - payload: the stored payload (the stack as text), or `nil`.
    ///   - uploadDeviceID: the `X-Hermes-Device-Id` the record came with.
    package init(
        namespace: String, reportID: String, createTime: Int64, meta: String, payload: [UInt8]?, uploadDeviceID: String?
    ) {
        let object = (try? JSONValue(parsing: Array(meta.utf8))) ?? .object([:])
        func text(_ field: String) -> String? {
            guard let value = object[field]?.stringValue, !value.isEmpty else { return nil }
            return String(value.prefix(CrashFrame.maximumNameLength))
        }
        self.namespace = namespace
        self.reportID = reportID
        self.createTime = createTime
        signature = CrashSignature(meta: object, payload: payload)
        userID = text(RecordField.userID)
        deviceID = text(RecordField.deviceID) ?? uploadDeviceID.flatMap { $0.isEmpty ? nil : $0 }
        appVersion = text(RecordField.appVersion)
    }
}
