import Foundation
import HermesWire
import Logging

/// One upload round in one namespace (specification §6): gates, then batch after batch per table —
/// claim (crash first, within maxItem and maxBodyMByte), encode, POST, act on the answer —
/// until nothing is pending, the quota is used up, or the collector asks to wait.
struct UploadRound: Sendable {
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
        /// Set when the round ended on an answer the namespace must wait after.
        var wait: Wait?
    }

    /// Why a namespace must wait before its next automatic round.
    enum Wait: Sendable, Equatable {
        /// A failure to get the batch stored (network, 5xx, 408, 429): back off, honouring `Retry-After`.
        case retry(after: Duration?)
        /// A refusal no quick retry will fix: pause the namespace (``UploadBlock``).
        case pause(ResponseAction.Refusal)
    }

    func run(batchSize start: BatchSize) async -> Result {
        var summary = UploadSummary(namespace: namespace)
        var lastFailure = ""
        var batchSize = start
        func end(_ outcome: UploadSummary.Outcome, wait: Wait? = nil) -> Result {
            summary.outcome = outcome
            return Result(summary: summary, batchSize: batchSize, wait: wait)
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
                    let (batch, oversize) = try await context.writer.perform { try $0.claimBatch(request, batchID: ReportIDGenerator.shared.next(milliseconds: context.wallClock())) }
                    context.ledger.record(oversize, namespace: namespace, reason: .oversize)
                    if batch.rows.isEmpty {
                        if oversize > 0 { continue }
                        break
                    }
                    guard let (action, failure) = try await send(batch, endpoint: endpoint, summary: &summary) else { continue }
                    lastFailure = failure ?? lastFailure
                    switch action {
                    case .delivered(let rejected):
                        try await context.writer.perform { try $0.finishBatch(batch, namespace: namespace) }
                        let rejections = batch.rejections(rejected)
                        summary.recordsSent += batch.rows.count - rejections.count
                        summary.recordsRejected += rejections.count
                        if !rejections.isEmpty { reportRejections(rejections) }
                        batchSize.wasDelivered(maxItem: configuration.maxItem)
                    case .retry(let retryAfter):
                        try await context.writer.perform { try $0.releaseBatch(batch) }
                        return end(.retryLater(reason: lastFailure), wait: .retry(after: retryAfter))
                    case .halve where batchSize.refused(rows: batch.rows.count):
                        try await context.writer.perform { try $0.releaseBatch(batch) }
                        context.logger.notice("hermes: batch too large for the collector; halving", metadata: [
                            "namespace": "\(namespace)", "maxItem": "\(batchSize.rows(maxItem: configuration.maxItem))",
                        ])
                    case .halve:
                        // One record, and still too large: the collector's limit is below maxBodyMByte.
                        try await context.writer.perform { try $0.releaseBatch(batch) }
                        let refusal = ResponseAction.Refusal(
                            reason: .requestRefused, status: 413, code: nil,
                            message: "the collector refuses a single record as too large; its body limit is below maxBodyMByte"
                        )
                        return end(.paused(refusal.reason), wait: .pause(refusal))
                    case .pause(let refusal):
                        try await context.writer.perform { try $0.releaseBatch(batch) }
                        return end(.paused(refusal.reason), wait: .pause(refusal))
                    }
                } catch is CancellationError {
                    return end(.cancelled)
                } catch {
                    return end(.retryLater(reason: "\(error)"), wait: .retry(after: nil))
                }
            }
        }
        return end(.completed)
    }

    /// Counts and logs the records the collector rejected (they left the store with their batch).
    private func reportRejections(_ rejections: [UploadAnswer.Rejection]) {
        let codes = Dictionary(rejections.map { ($0.code, 1) }, uniquingKeysWith: +)
        context.ledger.recordRejections(codes, namespace: namespace)
        context.logger.warning("hermes: the collector rejected records; they are deleted", metadata: [
            "namespace": "\(namespace)", "records": "\(rejections.count)",
            "codes": "\(codes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ","))",
            "reason": "\(rejections[0].reason)",
        ])
    }

    /// Encodes and posts a claimed batch; the batch is released on any failure to get an answer.
    /// - Returns: what the answer means, and a description of it when it is a failure; `nil`
    ///   when the batch was one record that no packet can carry (v1's limits): it was deleted
    ///   and counted as oversize.
    private func send(_ batch: ClaimedBatch, endpoint: URL, summary: inout UploadSummary) async throws -> (ResponseAction, String?)? {
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
            guard batch.rows.count == 1 else { return (.halve, error.message) }
            try await context.writer.perform { try $0.finishBatch(batch, namespace: namespace) }
            context.ledger.record(1, namespace: namespace, reason: .oversize)
            return nil
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
            let failure = (200..<300).contains(response.status) ? nil : "HTTP \(response.status): \(String(decoding: response.body.prefix(200), as: UTF8.self))"
            return (ResponseAction(response), failure)
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
