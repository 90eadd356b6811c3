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
        /// A failure to get the batch stored (network, 5xx, 408, 429, a 2xx that acknowledged
        /// nothing): back off, honouring `Retry-After`.
        case retry(after: Duration?)
        /// A refusal no quick retry will fix: pause the namespace (``UploadBlock``).
        case pause(ResponseAction.Refusal)
    }

    func run(batchSize start: BatchSize) async -> Result {
        var summary = UploadSummary(namespace: namespace)
        var batchSize = start
        func end(_ outcome: UploadSummary.Outcome, wait: Wait? = nil) -> Result {
            summary.outcome = outcome
            return Result(summary: summary, batchSize: batchSize, wait: wait)
        }
        guard context.uploadsAllowed() else { return end(.consentNotGranted) }
        guard configuration.isUpload else { return end(.uploadDisabled) }
        guard status.isReachable else { return end(.offline) }
        guard let endpoint else { return end(.noCollector) }

        for table in [StoreSchema.Table.payload, .meta] {
            if let (outcome, wait) = await send(table, endpoint: endpoint, summary: &summary, batchSize: &batchSize) {
                return end(outcome, wait: wait)
            }
        }
        return end(.completed)
    }

    /// Sends batch after batch of `table` until none is left: one request in flight, the next
    /// batch claimed and encoded while it is, and an acknowledged batch's rows deleted in the
    /// same trip to the store as the claim after it. However it ends, one cleanup puts back
    /// the batches claimed but not delivered and deletes the rows the collector acknowledged.
    /// - Returns: how the round ends, or `nil` when the table is done.
    private func send(
        _ table: StoreSchema.Table, endpoint: URL, summary: inout UploadSummary,
        batchSize: inout BatchSize
    ) async -> (UploadSummary.Outcome, Wait?)? {
        let held = HeldBatches()
        var ending: (UploadSummary.Outcome, Wait?)?
        do {
            ending = try await pump(table, endpoint: endpoint, held: held, summary: &summary, batchSize: &batchSize)
            for batch in held.takeAcknowledged() { try await finish(batch) }
        } catch {
            ending = error is CancellationError ? (.cancelled, nil) : (.retryLater(reason: "\(error)"), .retry(after: nil))
        }
        for batch in held.takeClaimed() { await release(batch) }
        // The collector has these rows; if they cannot be deleted now they are sent again
        // later, and the collector keeps each record once.
        for batch in held.takeAcknowledged() { try? await finish(batch) }
        return ending
    }

    /// The sending loop of ``send(_:endpoint:summary:batchSize:)``, which holds every batch it
    /// claims or sees acknowledged in `held` until it is delivered and deleted.
    private func pump(
        _ table: StoreSchema.Table, endpoint: URL, held: HeldBatches, summary: inout UploadSummary,
        batchSize: inout BatchSize
    ) async throws -> (UploadSummary.Outcome, Wait?)? {
        var next = try await claim(table, batchSize: &batchSize, endpoint: endpoint, held: held)
        while let current = next {
            next = nil
            if Task.isCancelled { return (.cancelled, nil) }
            guard summary.requests < Self.maxRequests else { return nil }
            if status == .metered, try await !trafficWindow().allows(limitBytes: configuration.maxFlowBytes) {
                return (.quotaExceeded, nil)
            }
            summary.requests += 1
            summary.bytesSent += current.request.body.count
            if status == .metered {
                // Cellular bytes count whether or not the request succeeds.
                let window = try await trafficWindow().adding(current.request.body.count, at: context.wallClock())
                try await context.writer.perform { [namespace] in try $0.saveTrafficWindow(window, namespace: namespace) }
            }
            async let answer = context.transport.send(current.request)
            // Claimed meanwhile, the next batch leaves out the rows in flight.
            var upcoming: Prepared?
            var upcomingFailure: (any Error)?
            do {
                upcoming = try await claim(table, batchSize: &batchSize, endpoint: endpoint, held: held)
            } catch {
                upcomingFailure = error
            }
            let response: TransportResponse
            do {
                response = try await answer
            } catch {
                if Task.isCancelled { return (.cancelled, nil) }
                return (.retryLater(reason: "\(error)"), .retry(after: nil))
            }
            let action = ResponseAction(
                response, batchID: current.batch.id, records: current.batch.rows.count,
                acceptsUnacknowledgedSuccess: context.acceptsUnacknowledgedSuccess
            )
            if action == .unacknowledged {
                context.unacknowledged.record(namespace: namespace, status: response.status, body: response.body)
            }
            guard case .delivered(let rejected) = action else {
                let failure = "HTTP \(response.status): \(String(decoding: response.body.prefix(200), as: UTF8.self))"
                if let ending = settle(refused: action, rows: current.batch.rows.count, failure: failure, batchSize: &batchSize) {
                    return ending
                }
                for batch in held.takeClaimed() { await release(batch) }
                next = try await claim(table, batchSize: &batchSize, endpoint: endpoint, held: held)
                continue
            }
            held.acknowledge(current.batch)
            let rejections = current.batch.rejections(rejected)
            summary.recordsSent += current.batch.rows.count - rejections.count
            summary.recordsRejected += rejections.count
            if !rejections.isEmpty { reportRejections(rejections) }
            if let upcomingFailure { throw upcomingFailure }
            next = upcoming
            let rows = batchSize.rows(maxItem: configuration.maxItem)
            batchSize.wasDelivered(maxItem: configuration.maxItem)
            if batchSize.rows(maxItem: configuration.maxItem) > rows, next != nil {
                // Batches grow back after a 413: the next one was claimed at the old size.
                for batch in held.takeClaimed() { await release(batch) }
                next = try await claim(table, batchSize: &batchSize, endpoint: endpoint, held: held)
            }
        }
        return nil
    }

    /// Claims and encodes the next batch of `table` (``prepare(_:batchSize:endpoint:deleting:)``),
    /// deleting in the same trip the rows of the batch `held` last saw acknowledged, and holds
    /// what it claimed.
    private func claim(
        _ table: StoreSchema.Table, batchSize: inout BatchSize, endpoint: URL,
        held: HeldBatches
    ) async throws -> Prepared? {
        let deleting = held.lastAcknowledged
        let prepared = try await prepare(table, batchSize: &batchSize, endpoint: endpoint, deleting: deleting)
        if deleting != nil { held.forgetLastAcknowledged() }
        if let prepared { held.hold(prepared.batch) }
        return prepared
    }

    /// Deletes the rows of a batch the collector acknowledged.
    private func finish(_ batch: ClaimedBatch?) async throws {
        guard let batch else { return }
        try await context.writer.performPromptly { [namespace, context] in
            try $0.finishBatch(batch, namespace: namespace, copyingMeta: context.copiesPayloadMeta)
        }
    }

    /// What a refusal means for the round: `nil` to go on with a halved batch, or how it ends.
    private func settle(
        refused action: ResponseAction, rows: Int, failure: String,
        batchSize: inout BatchSize
    ) -> (UploadSummary.Outcome, Wait?)? {
        switch action {
        case .delivered:
            return nil
        case .retry(let retryAfter):
            return (.retryLater(reason: failure), .retry(after: retryAfter))
        case .unacknowledged:
            // The batch stays claimed in the round's held batches, whose cleanup puts it back.
            return (.retryLater(reason: "unacknowledged \(failure)"), .retry(after: nil))
        case .halve where halve(&batchSize, rows: rows):
            return nil
        case .halve:
            // One record, and still too large: the collector's limit is below maxBodyMByte.
            let refusal = ResponseAction.Refusal(
                reason: .requestRefused, status: 413, code: nil,
                message: "the collector refuses a single record as too large; its body limit is below maxBodyMByte"
            )
            return (.paused(refusal.reason), .pause(refusal))
        case .pause(let refusal):
            return (.paused(refusal.reason), .pause(refusal))
        }
    }

    /// Halves the batch size after a batch of `rows` rows was too large.
    /// - Returns: `false` when it was a single row.
    private func halve(_ batchSize: inout BatchSize, rows: Int) -> Bool {
        guard batchSize.refused(rows: rows) else { return false }
        context.logger.notice(
            "hermes: batch too large for the collector; halving",
            metadata: [
                "namespace": "\(namespace)", "maxItem": "\(batchSize.rows(maxItem: configuration.maxItem))",
            ])
        return true
    }

    /// A claimed batch, encoded into its request.
    private struct Prepared: Sendable {
        var batch: ClaimedBatch
        var request: TransportRequest
    }

    /// Claims and encodes the next batch of `table`: `nil` when nothing is waiting. A batch
    /// that no packet can carry is halved; a single record that none can carry (v1's limits)
    /// is deleted and counted as oversize.
    /// - Parameter deleting: a batch the collector acknowledged, whose rows are deleted in the
    ///   same trip to the store.
    private func prepare(
        _ table: StoreSchema.Table, batchSize: inout BatchSize, endpoint: URL,
        deleting: ClaimedBatch?
    ) async throws -> Prepared? {
        var deleting = deleting
        while true {
            let request = RecordStore.BatchRequest(
                namespace: namespace, table: table, maxItems: batchSize.rows(maxItem: configuration.maxItem),
                maxBytes: configuration.maxBodyBytes, excludedTypes: status == .metered ? wifiOnlyTypes : [], monitoredTypes: monitoredTypes
            )
            let finished = deleting
            deleting = nil
            let (batch, oversize) = try await context.writer.performPromptly { [namespace] store in
                if let finished { try store.finishBatch(finished, namespace: namespace, copyingMeta: context.copiesPayloadMeta) }
                return try store.claimBatch(request, batchID: ReportIDGenerator.shared.next(milliseconds: context.wallClock()))
            }
            context.ledger.record(oversize, namespace: namespace, reason: .oversize)
            if batch.rows.isEmpty {
                if oversize > 0 { continue }
                return nil
            }
            do {
                return Prepared(batch: batch, request: try encode(batch, endpoint: endpoint))
            } catch  where [.metaBlockTooLarge, .tooManyPayloads].contains(error.code) {
                guard batch.rows.count == 1 else {
                    await release(batch)
                    _ = halve(&batchSize, rows: batch.rows.count)
                    continue
                }
                try await finish(batch)
                context.ledger.record(1, namespace: namespace, reason: .oversize)
            } catch {
                await release(batch)
                throw error
            }
        }
    }

    private func release(_ batch: ClaimedBatch) async {
        // Releasing only touches memory: it fails only once the client is shut down, and then
        // nothing is in flight any more.
        _ = try? await context.writer.performPromptly { $0.releaseBatch(batch) }
    }

    /// Counts and logs the records the collector rejected (they left the store with their batch).
    private func reportRejections(_ rejections: [UploadAnswer.Rejection]) {
        let codes = Dictionary(rejections.map { ($0.code, 1) }, uniquingKeysWith: +)
        context.ledger.recordRejections(codes, namespace: namespace)
        context.logger.warning(
            "hermes: the collector rejected records; they are deleted",
            metadata: [
                "namespace": "\(namespace)", "records": "\(rejections.count)",
                "codes": "\(codes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ","))",
                "reason": "\(rejections[0].reason)",
            ])
    }

    /// The request that carries a claimed batch.
    /// - Throws: ``HermesWireError`` when no packet can carry the batch.
    private func encode(_ batch: ClaimedBatch, endpoint: URL) throws(HermesWireError) -> TransportRequest {
        let kind: PacketKind = batch.table == .meta ? .meta : .payload
        let packet = Packet(
            kind: kind,
            metaLines: batch.rows.map(\.meta),
            payloads: kind == .payload ? batch.rows.map { uploadsPayload($0) ? Array($0.payload ?? Data()) : [] } : []
        )
        return TransportRequest(
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
            body: try context.wireFormat.encode(packet, compressionLevel: Gzip.fastLevel),
            timeout: context.requestTimeout
        )
    }

    private func trafficWindow() async throws -> TrafficWindow {
        let now = context.wallClock()
        let stored = try await context.writer.perform { [namespace] in try $0.trafficWindow(namespace) }
        return (stored ?? TrafficWindow(start: now, usedBytes: 0)).current(at: now)
    }

    /// The stored monitor types of the namespace's monitor list: rows of other types (a type the
    /// server has since removed) wait, unsent, until it lists them again or housekeeping expires
    /// them as ``LossReason/unmonitored``.
    private var monitoredTypes: Set<String> {
        Set(configuration.monitorList.map { RecordNamespace.storedType($0.type, in: namespace) })
    }

    /// The stored monitor types of the namespace's `onlyWifi` entries.
    private var wifiOnlyTypes: [String] {
        configuration.monitorList.filter(\.onlyWifi).map { RecordNamespace.storedType($0.type, in: namespace) }
    }

    private func uploadsPayload(_ row: ClaimedBatch.Row) -> Bool {
        configuration.monitorList.first { RecordNamespace.storedType($0.type, in: namespace) == row.monitorType }?.isUploadPayload ?? false
    }
}
