package import Foundation
package import HermesWire

/// The upload bodies of the hostile torture, sealed with the collector's key as an app that was
/// unpacked would seal them: valid packets that try to make the collector work or hold too much.
package struct HostileUploads {
    package let format: WireFormat

    package init(key: [UInt8], keyID: UInt32) throws {
        format = .v2(try AESGCMCipher(key: key, keyID: keyID))
    }

    /// A meta line of the torture's namespace.
    package static func metaLine(_ reportID: String, type: String = "appLag", extra: [String: JSONValue] = [:]) -> [UInt8] {
        let fields: [String: JSONValue] = [
            RecordField.reportID: .string(reportID), RecordField.namespace: .string(HostileTorture.namespace),
            RecordField.monitorType: .string(type), RecordField.createTime: .int(1_795_400_000_000), RecordField.isBusiness: true,
        ]
        return (try? JSONValue.object(fields.merging(extra) { _, extra in extra }).jsonBytes()) ?? []
    }

    /// A payload packet of `slots` records, each payload `zeros` zero bytes (a few KiB once
    /// compressed, whatever `zeros` is).
    package func zeroPayloads(slots: Int, zeros: Int) throws -> [UInt8] {
        let lines = (0..<slots).map { Self.metaLine("bomb-\($0)", type: "appCrash") }
        let payload = [UInt8](repeating: 0, count: zeros)
        return try format.encode(Packet(kind: .payload, metaLines: lines, payloads: Array(repeating: payload, count: slots)))
    }

    /// A meta packet of `lines`.
    package func meta(_ lines: [[UInt8]]) throws -> [UInt8] {
        try format.encode(Packet(kind: .meta, metaLines: lines))
    }
}
