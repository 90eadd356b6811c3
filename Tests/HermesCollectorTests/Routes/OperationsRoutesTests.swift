import Foundation
@testable import HermesCollector
import HermesWire
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

struct OperationsRoutesTests {
    @Test func healthAnswersOK() async throws {
        let fixture = try CollectorFixture()
        try await fixture.test { client throws in
            let response = try await client.execute(uri: "/health", method: .get)
            #expect(response.status == .ok)
            #expect(response.text == "ok")
        }
    }

    @Test func readyAnswersWhileTheStoreCanBeReadAnd503WhenItCannot() async throws {
        let storage = try SwitchableStorage()
        let app = try await buildApplication(
            configuration: try CollectorFixture().configuration, storage: storage, logger: CollectorFixture.silentLogger
        )
        try await app.test(.router) { client in
            let ready = try await client.execute(uri: "/ready", method: .get)
            #expect(ready.status == .ok)
            #expect(ready.text == "ready")
            // When the store goes away, /ready says so and /health still answers
            storage.isDown = true
            let notReady = try await client.execute(uri: "/ready", method: .get)
            #expect(notReady.status == .serviceUnavailable)
            #expect(notReady.text == "not ready: the store cannot be read")
            #expect(try await client.execute(uri: "/health", method: .get).status == .ok)
        }
    }

    @Test func metricsCountStoredDuplicatesRejectsBytesAndBatches() async throws {
        let fixture = try CollectorFixture()
        let format = try #require(try CollectorFixture.formats()["v2-gcm"])
        let body = try format.encode(Packet(kind: .meta, metaLines: [try CollectorFixture.metaLine("a"), try CollectorFixture.metaLine("b")]))
        let withBadRecord = try format.encode(
            Packet(
                kind: .meta,
                metaLines: [
                    try CollectorFixture.metaLine("c"), try CollectorFixture.metaLine("d", extra: [RecordField.isBusiness: "yes"]),
                ]))
        let text = try await fixture.test { client throws in
            // Given one batch of two, the same batch again, a batch with a bad record, one
            // truncated body and one without an app key
            _ = try await client.upload(body, kind: .meta)
            _ = try await client.upload(body, kind: .meta)
            _ = try await client.upload(withBadRecord, kind: .meta)
            _ = try await client.upload(Array(body.prefix(10)), kind: .meta)
            _ = try await client.upload(body, kind: .meta, appKey: nil)
            let response = try await client.execute(uri: "/metrics", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
            return response.text
        }
        // Then every counter says so
        let all = Set(text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init))
        let samples = all.filter {
            !$0.hasPrefix("hermes_collector_request_duration_seconds") && !$0.hasPrefix("hermes_collector_database_bytes")
                && !$0.hasPrefix("process_")
        }
        #expect(
            samples == [
                "hermes_collector_records_stored_total 3",
                "hermes_collector_duplicates_dropped_total 2",
                "hermes_collector_rejects_total{reason=\"truncatedPacket\"} 1",
                "hermes_collector_rejects_total{reason=\"unauthorized\"} 1",
                "hermes_collector_records_rejected_total{reason=\"invalidField\"} 1",
                "hermes_collector_bytes_in_total \(2 * body.count + withBadRecord.count + 10)",
                "hermes_collector_batches_total{kind=\"meta\"} 3",
                "hermes_collector_batches_total{kind=\"payload\"} 0",
                "hermes_collector_retention_days_dropped_total 0",
                "hermes_collector_retention_records_removed_total 0",
                "hermes_collector_retention_failures_total 0",
                "hermes_collector_connections_refused_total 0",
                "hermes_collector_connections_timed_out_total 0",
                "hermes_collector_build_info{version=\"\(HermesVersion.current)\"} 1.0",
                "hermes_collector_sync_requests_total 0",
                "hermes_collector_sync_change_sets_applied_total 0",
                "hermes_collector_sync_records_sent_total 0",
            ])
        #expect(text.contains("# TYPE hermes_collector_rejects_total counter\n"))
        // And the request histogram counts each answer by route and status
        let route = #"route="/v1/upload/meta",method="POST""#
        #expect(
            all.isSuperset(of: [
                "hermes_collector_request_duration_seconds_count{\(route),status=\"200\"} 3",
                "hermes_collector_request_duration_seconds_count{\(route),status=\"400\"} 1",
                "hermes_collector_request_duration_seconds_count{\(route),status=\"401\"} 1",
            ]))
        #expect(text.contains("# TYPE hermes_collector_request_duration_seconds histogram\n"))
        // And the store's size is there
        let size = all.first { $0.hasPrefix("hermes_collector_database_bytes ") }.flatMap { Double($0.split(separator: " ")[1]) }
        #expect((size ?? 0) > 0)
        #expect(fixture.metrics.snapshot.recordsStored == 3)
        // And the process's own figures, by the Prometheus client conventions
        func value(_ name: String) -> Double? {
            all.first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ")[1]) }
        }
        #expect((value("process_cpu_seconds_total") ?? 0) > 0)
        #expect(text.contains("# TYPE process_cpu_seconds_total counter\n"))
        #expect((value("process_resident_memory_bytes") ?? 0) > 1_000_000)
        #expect((value("process_virtual_memory_bytes") ?? 0) >= (value("process_resident_memory_bytes") ?? .infinity))
        #expect((value("process_open_fds") ?? 0) >= 3)
        #expect((value("process_max_fds") ?? 0) >= (value("process_open_fds") ?? .infinity))
        #expect(abs((value("process_start_time_seconds") ?? 0) - Date().timeIntervalSince1970) < 3_600)
    }

    @Test func processMemoryIsReadFromStatmInPages() {
        #expect(ProcessStatistics.memory(statm: "5000 1200 300 10 0 900 0\n", pageSize: 4096) ?? (0, 0) == (5000 * 4096, 1200 * 4096))
        #expect(ProcessStatistics.memory(statm: "garbage", pageSize: 4096) == nil)
    }
}
