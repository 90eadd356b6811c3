import HermesWire

/// Turns an upload body into a checked batch: decode the framing, open and gunzip each block,
/// split the meta lines, then check each record on its own (`RecordCheck`, then the
/// deployment's rule). Pure: no I/O, nothing stored.
struct PacketIngestor: Sendable {
    let decoder: PacketDecoder
    let recordRule: CollectorConfiguration.RecordRule?

    /// A readable upload: the records to store and the ones refused.
    struct Ingest: Sendable {
        var batch: IngestBatch
        var rejected: [UploadAnswer.Rejection]
    }

    /// Decodes an upload and checks each of its records.
    /// - Parameters:
    ///   - body: the request body.
    ///   - kind: the endpoint's packet kind.
    ///   - headers: the request's Hermes headers.
    ///   - limits: what the packet and each record of it may hold.
    ///   - receivedAt: now, in milliseconds since 1970.
    /// - Returns: the valid records as a batch, and a rejection per invalid record.
    /// - Throws: ``CollectorError`` with the HermesWire code and scope `packet` when the packet
    ///   as a whole cannot be read; then nothing of it is stored.
    func ingest(
        _ body: [UInt8], kind: PacketKind, headers: UploadHeaders, limits: IngestLimits, receivedAt: Int64
    ) throws(CollectorError) -> Ingest {
        let packet: Packet
        do {
            packet = try decoder.decode(body, kind: kind, version: headers.packetVersion, limits: limits.packet).packet
        } catch {
            throw CollectorError(error, scope: .packet)
        }
        var records: [IngestRecord] = []
        var rejected: [UploadAnswer.Rejection] = []
        records.reserveCapacity(packet.metaLines.count)
        for (index, line) in packet.metaLines.enumerated() {
            guard line.count <= limits.metaLineBytes else {
                let reason =
                    "the meta line is \(line.count) bytes; namespace \(headers.namespace) accepts at most \(limits.metaLineBytes) (maxMetaKByte)"
                rejected.append(.init(index: index, reportID: nil, code: HermesWireError.Code.metaTooLarge.description, reason: reason))
                continue
            }
            // The line is stored as received: only a deployment's rule needs the whole of it
            // parsed; otherwise only the checked fields and the facets' members are built.
            let check: RecordCheck.Outcome<RecordCheck.KeptMeta>
            var whole: [String: JSONValue]?
            if recordRule == nil {
                check = RecordCheck.check(metaLine: line, namespace: headers.namespace, keeping: RecordFacets.members)
            } else {
                let parsed = RecordCheck.check(metaLine: line, namespace: headers.namespace)
                if case .valid(_, let meta) = parsed { whole = meta }
                check = parsed.map(RecordFacets.members.kept(from:))
            }
            switch check {
            case .rejected(let reportID, let error):
                rejected.append(.init(index: index, reportID: reportID, code: error.code.description, reason: error.message))
            case .valid(let fields, let meta):
                let payload = index < packet.payloads.count ? packet.payloads[index] : []
                let record = IngestRecord(
                    namespace: fields.namespace, reportID: fields.reportID, monitorType: fields.monitorType,
                    createTime: fields.createTime, meta: line, payload: payload.isEmpty ? nil : payload,
                    facets: RecordFacets(meta: meta, namespace: fields.namespace, monitorType: fields.monitorType)
                )
                if let whole, let reason = recordRule?(record, whole) {
                    rejected.append(
                        .init(index: index, reportID: fields.reportID, code: CollectorError.Code.refusedByRule.description, reason: reason))
                } else {
                    records.append(record)
                }
            }
        }
        var batch = IngestBatch(records: records, deviceID: headers.deviceID, batchID: headers.batchID, receivedAt: receivedAt)
        batch.appKeyID = headers.appKeyID
        return Ingest(batch: batch, rejected: rejected)
    }
}
