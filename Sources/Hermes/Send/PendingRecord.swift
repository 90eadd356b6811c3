import Foundation
import HermesWire

/// A validated record on its way to the store: its columns and its encoded meta.
struct PendingRecord: Sendable {
    var reportID: String
    var namespace: String
    var monitorType: String
    var isBusiness: Bool
    var createdTime: Int64
    var appVersion: String
    var meta: [UInt8]
    /// `nil`: the meta table; otherwise the payload table.
    var payload: Data?

    /// Meta bytes plus payload bytes (specification §4.6).
    var size: Int { meta.count + (payload?.count ?? 0) }
}
