import HermesCollector
package import HermesWire

/// `hermes bench wire`: packet encode and decode speed on a 1 MiB batch of JSON lines, the gzip
/// ratio, the framing overhead against raw zlib plus the cipher on the same bytes, and the
/// collector's check of each line (``RecordCheck``, building the fields it stores).
package struct WireBenchmark {
    package static let batchBytes = 1 << 20

    package init() {}

    package func run() throws -> BenchReport {
        let lines = SampleRecords.metaLines(totalBytes: Self.batchBytes)
        let packet = Packet(kind: .meta, metaLines: lines)
        let rawBytes = Double(packet.metaBlock.count)
        let megabytes = rawBytes / 1_048_576

        let cbc = try AESCBCCipher(key: Array(repeating: 7, count: 16), iv: Array(repeating: 9, count: 16))
        let gcm = try AESGCMCipher(key: Array(repeating: 5, count: 16), keyID: 1)
        let decoder = PacketDecoder(keyring: Keyring([cbc, gcm]))
        let v1 = WireFormat.v1(cbc)
        let v2 = WireFormat.v2(gcm)

        let v1Body = try v1.encode(packet)
        let v2Body = try v2.encode(packet)
        let metaBlock = packet.metaBlock

        let v1Encode = try medianSeconds { _ = try v1.encode(packet) }
        let v1Decode = try medianSeconds { _ = try decoder.decode(v1Body, kind: .meta, version: 1) }
        let v2Encode = try medianSeconds { _ = try v2.encode(packet) }
        let v2Decode = try medianSeconds { _ = try decoder.decode(v2Body, kind: .meta, version: 2) }
        let v1Framing = try medianSpeedRatio(
            subject: { _ = try v1.encode(packet) },
            baseline: { _ = try cbc.seal(Gzip.compress(metaBlock), authenticating: []) }
        )
        let v2Framing = try medianSpeedRatio(
            subject: { _ = try v2.encode(packet) },
            baseline: { _ = try gcm.seal(Gzip.compress(metaBlock), authenticating: []) }
        )

        // Each line's namespace, read before timing: the check compares the line's with it.
        let namespaces = lines.map { (try? JSONValue(parsing: $0))?.objectValue?[RecordField.namespace]?.stringValue ?? "" }
        let check = try medianSeconds {
            for (line, namespace) in zip(lines, namespaces) {
                guard case .valid = RecordCheck.check(metaLine: line, namespace: namespace, keeping: RecordFacets.members) else {
                    throw RunFailure("a sample line failed the collector's check")
                }
            }
        }

        var report = BenchReport()
        report.add("batch_bytes", rawBytes, "batch (bytes of JSON lines)")
        report.add("records", Double(lines.count), "records in the batch")
        report.add("v1_encode_mb_per_s", megabytes / v1Encode, "v1 encode (MB/s)")
        report.add("v1_decode_mb_per_s", megabytes / v1Decode, "v1 decode (MB/s)")
        report.add("v2_encode_mb_per_s", megabytes / v2Encode, "v2 AES-GCM encode (MB/s)")
        report.add("v2_decode_mb_per_s", megabytes / v2Decode, "v2 AES-GCM decode (MB/s)")
        report.add("gzip_ratio", rawBytes / Double(v2Body.count), "gzip ratio (JSON bytes / wire bytes)")
        report.add("v1_framing_ratio", v1Framing, "v1 encode / raw zlib+AES-CBC speed")
        report.add("v2_framing_ratio", v2Framing, "v2 encode / raw zlib+AES-GCM speed")
        report.add("check_us_per_record", check * 1e6 / Double(lines.count), "the collector's check of one meta line (µs)")
        return report
    }
}
