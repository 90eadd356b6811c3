import HermesWire

/// Turns an upload body into a checked batch: decode the framing, open and gunzip each block,
/// split the meta lines, parse and check each record. Pure: no I/O, nothing stored.
struct PacketIngestor: Sendable {
    let decoder: PacketDecoder

    /// Decodes and checks one upload; all of it or nothing.
    /// - Parameters:
    ///   - body: the request body.
    ///   - kind: the endpoint's packet kind.
    ///   - headers: the request's Hermes headers.
    ///   - receivedAt: now, in milliseconds since 1970.
    /// - Throws: ``CollectorError`` with the HermesWire code of a bad packet or the code of the
    ///   first bad record.
    func batch(_ body: [UInt8], kind: PacketKind, headers: UploadHeaders, receivedAt: Int64) throws(CollectorError) -> IngestBatch {
        let packet: Packet
        do {
            packet = try decoder.decode(body, kind: kind, version: headers.packetVersion).packet
        } catch {
            throw CollectorError(error)
        }
        var records: [IngestRecord] = []
        records.reserveCapacity(packet.metaLines.count)
        for (index, line) in packet.metaLines.enumerated() {
            let payload = index < packet.payloads.count ? packet.payloads[index] : nil
            records.append(try IngestRecord(metaLine: line, payload: payload, namespace: headers.namespace, index: index))
        }
        return IngestBatch(records: records, deviceID: headers.deviceID, batchID: headers.batchID, receivedAt: receivedAt)
    }
}
