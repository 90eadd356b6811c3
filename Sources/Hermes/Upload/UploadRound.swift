import Foundation
import HermesWire
import Logging

/// One upload round in one namespace (specification §6): gates, then batch after batch per table —
/// claim (crash first, within maxItem and maxBodyMByte), encode, POST, act on the answer —
/// until nothing is pending, the quota is used up, or the collector asks to wait.
struct UploadRound: Sendable {
    static let maxAttempts = 5
    static let maxRequests = 10_000

    let namespace: String
    let configuration: NamespaceConfiguration
    let status: NetworkStatus
    let endpoint: URL?
    let context: UploadContext

    /// How a round ended, with what the namespace must remember.
    struct Result: Sendable {
        var summary: UploadSummary
        /// The batch size to use from now on (halved after a 413, doubled back after deliveries).
        var batchSize: BatchSize
        /// Set when the round ended on a failure the namespace must back off from.
        var retryAfter: Duration??
    }

    func run(batchSize start: BatchSize) async -> Result {
        var summary = UploadSummary(namespace: namespace)
        var lastFailure = ""
        var batchSize = start
        func end(_ outcome: UploadSummary.Outcome, retryAfter: Duration?? = nil) -> Result {
            summary.outcome = outcome
            return Result(summary: summary, batchSize: batchSize, retryAfter: retryAfter)
        }
        guard configuration.isUpload else { return end(.uploadDisabled) }
        guard status.isReachable else { return end(.offline) }
        guard let endpoint else { return end(.noCollector) }

        for table in [StoreSchema.Table.payload, .meta] {
            while summary.requests < Self.maxRequests {
                if Task.isCancelled { return end(.cancelled) }
                do {
                    if status == .metered, try await !trafficWindow().allows(limitBytes: configuration.maxFlowBytes) {
                        return end(.quotaExceeded)
                    }
                    let request = RecordStore.BatchRequest(
                        namespace: namespace, table: table, maxItems: batchSize.rows(maxItem: configuration.maxItem),
                        maxBytes: configuration.maxBodyBytes, excludedTypes: status == .metered ? wifiOnlyTypes : []
                    )
                    let (batch, oversize) = try await context.writer.perform { try $0.claimBatch(request, batchID: ReportIDGenerator.shared.next()) }
                    context.ledger.record(oversize, namespace: namespace, reason: .oversize)
                    if batch.rows.isEmpty {
                        if oversize > 0 { continue }
                        break
                    }
                    let (action, failure) = try await send(batch, endpoint: endpoint, summary: &summary)
                    lastFailure = failure ?? lastFailure
                    switch action {
                    case .delete:
                        try await context.writer.perform { try $0.finishBatch(batch, namespace: namespace) }
                        summary.recordsSent += batch.rows.count
                        batchSize.wasDelivered(maxItem: configuration.maxItem)
                    case .retry(let retryAfter):
                        try await context.writer.perform { try $0.releaseBatch(batch) }
                        return end(.retryLater(reason: lastFailure), retryAfter: .some(retryAfter))
                    case .halve where batchSize.refused(rows: batch.rows.count):
                        try await context.writer.perform { try $0.releaseBatch(batch) }
                        context.logger.notice("hermes: batch too large for the collector; halving", metadata: [
                            "namespace": "\(namespace)", "maxItem": "\(batchSize.rows(maxItem: configuration.maxItem))",
                        ])
                    case .halve, .countAttempt:
                        let dropped = try await context.writer.perform { try $0.rejectBatch(batch, namespace: namespace, maxAttempts: Self.maxAttempts) }
                        if dropped > 0 {
                            context.ledger.record(dropped, namespace: namespace, reason: .poison)
                            context.logger.error("hermes: the collector rejected records \(Self.maxAttempts) times; dropped them", metadata: [
                                "namespace": "\(namespace)", "records": "\(dropped)", "reason": "\(lastFailure)",
                            ])
                        }
                    }
                } catch is CancellationError {
                    return end(.cancelled)
                } catch {
                    return end(.retryLater(reason: "\(error)"), retryAfter: .some(nil))
                }
            }
        }
        return end(.completed)
    }

    /// Encodes and posts a claimed batch; the batch is released on any failure to get an answer.
    /// - Returns: what the answer means, and a description of it when it is a failure.
    private func send(_ batch: ClaimedBatch, endpoint: URL, summary: inout UploadSummary) async throws -> (ResponseAction, String?) {
        let kind: PacketKind = batch.table == .meta ? .meta : .payload
        let packet = Packet(
            kind: kind,
            metaLines: batch.rows.map { Array($0.meta.utf8) },
            payloads: kind == .payload ? batch.rows.map { uploadsPayload($0) ? Array($0.payload ?? Data()) : [] } : []
        )
        let body: [UInt8]
        do {
            body = try context.wireFormat.encode(packet)
        } catch where [.metaBlockTooLarge, .tooManyPayloads].contains(error.code) {
            return (.halve, error.message)
        } catch {
            try await context.writer.perform { try $0.releaseBatch(batch) }
            throw error
        }
        let request = TransportRequest(
            method: "POST",
            url: endpoint.appendingPathComponent(String(HermesPath.upload(kind).dropFirst())),
            headers: [
                HermesHeader.namespace: namespace,
                HermesHeader.batchID: batch.id,
                HermesHeader.deviceID: context.deviceID,
                HermesHeader.appKey: context.appKey,
                HermesHeader.packetVersion: String(context.wireFormat.version),
                "Content-Type": "application/octet-stream",
            ],
            body: body,
            timeout: context.requestTimeout
        )
        summary.requests += 1
        summary.bytesSent += body.count
        if status == .metered {
            // Cellular bytes count whether or not the request succeeds.
            let window = try await trafficWindow().adding(body.count, at: context.wallClock())
            try await context.writer.perform { [namespace] in try $0.saveTrafficWindow(window, namespace: namespace) }
        }
        do {
            let response = try await context.transport.send(request)
            let action = ResponseAction(status: response.status, retryAfter: response.header("Retry-After"))
            let failure = action == .delete ? nil : "HTTP \(response.status): \(String(decoding: response.body.prefix(200), as: UTF8.self))"
            return (action, failure)
        } catch {
            try await context.writer.perform { try $0.releaseBatch(batch) }
            if Task.isCancelled { throw CancellationError() }
            throw error
        }
    }

    private func trafficWindow() async throws -> TrafficWindow {
        let now = context.wallClock()
        let stored = try await context.writer.perform { [namespace] in try $0.trafficWindow(namespace) }
        return (stored ?? TrafficWindow(start: now, usedBytes: 0)).current(at: now)
    }

    /// The stored monitor types of the namespace's `onlyWifi` entries.
    private var wifiOnlyTypes: [String] {
        configuration.monitorList.filter(\.onlyWifi).map { storedType($0.type) }
    }

    private func uploadsPayload(_ row: ClaimedBatch.Row) -> Bool {
        configuration.monitorList.first { storedType($0.type) == row.monitorType }?.isUploadPayload ?? false
    }

    private func storedType(_ type: String) -> String {
        namespace == ConfigurationDocument.hermesNamespace ? type : "\(namespace)-\(type)"
    }
}
