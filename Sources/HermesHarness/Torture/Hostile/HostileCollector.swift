package import Foundation
package import Hermes
import HermesCollector
package import HermesWire

/// The cases of ``HostileTorture`` played against the collector over loopback HTTP, with the
/// app key and the key an unpacked app gives away.
struct HostileCollector: Sendable {
    static let appKey = "hostile"

    let port: Int
    let uploads: HostileUploads
    private let transport = PlatformTransport()

    init(port: Int, uploads: HostileUploads) {
        self.port = port
        self.uploads = uploads
    }

    /// Posts an upload body; returns the answer and how long it took.
    func post(_ body: [UInt8], kind: PacketKind, batch: String = UUID().uuidString) async throws -> (TransportResponse, Double) {
        let request = TransportRequest(
            method: "POST", url: URL(string: "http://127.0.0.1:\(port)\(HermesPath.upload(kind))")!,
            headers: [
                HermesHeader.appKey: Self.appKey, HermesHeader.namespace: HostileTorture.namespace, HermesHeader.batchID: batch,
                HermesHeader.deviceID: "hostile-device", HermesHeader.packetVersion: "2",
            ],
            body: body, timeout: .seconds(60)
        )
        let clock = ContinuousClock()
        let start = clock.now
        let response = try await transport.send(request)
        return (response, start.duration(to: clock.now).seconds * 1_000)
    }

    /// The refusal code of a JSON refusal body, or `-`.
    static func code(_ response: TransportResponse) -> String {
        (try? JSONValue(parsing: response.body))?["error"]?.stringValue ?? "-"
    }

    /// Decompression bombs: more payload slots than a namespace allows, slots that together
    /// decompress far past its limit, and many such packets at once.
    func bombs() async throws -> [HostileTorture.Case] {
        let slots = try uploads.zeroPayloads(slots: 200, zeros: 1_024)
        let slotAnswer = try await post(slots, kind: .payload).0
        let bomb = try uploads.zeroPayloads(slots: 20, zeros: 8 << 20)
        let (bombAnswer, bombMs) = try await post(bomb, kind: .payload)
        let clock = ContinuousClock()
        let start = clock.now
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<32 { group.addTask { try await post(bomb, kind: .payload).0.status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        let concurrentMs = start.duration(to: clock.now).seconds * 1_000
        let refused = statuses.filter { $0 == 413 || $0 == 503 }.count
        return [
            .init(
                name: "slot_bomb", sent: "a \(slots.count)-byte payload packet of 200 slots",
                happened: "HTTP \(slotAnswer.status) \(Self.code(slotAnswer))",
                held: slotAnswer.status == 413 && Self.code(slotAnswer) == "tooManyRecords"
            ),
            .init(
                name: "packet_bomb", sent: "a \(bomb.count)-byte packet of 20 slots of 8 MiB of zeros each (160 MiB opened)",
                happened: "HTTP \(bombAnswer.status) \(Self.code(bombAnswer)) in \(Int(bombMs)) ms",
                held: bombAnswer.status == 413 && Self.code(bombAnswer) == "packetTooLarge"
            ),
            .init(
                name: "concurrent_bombs", sent: "32 such packets at once",
                happened: "\(refused) of 32 refused (413, or 503 past the budget for bytes in flight) in \(Int(concurrentMs)) ms",
                held: refused == 32
            ),
        ]
    }

    /// Two records whose `REPORT_ID`s differ only after a NUL, beside a clean one.
    func nulFields() async throws -> HostileTorture.Case {
        let clean = "clean-\(UUID().uuidString)"
        let body = try uploads.meta([
            HostileUploads.metaLine("same\u{0}a"), HostileUploads.metaLine("same\u{0}b"), HostileUploads.metaLine(clean),
        ])
        let response = try await post(body, kind: .meta).0
        let answer = UploadAnswer(body: response.body)
        return .init(
            name: "nul_fields", sent: "3 records, 2 with a NUL in REPORT_ID",
            happened: "HTTP \(response.status), stored \(answer.stored), rejected \(answer.rejected.map(\.code))",
            held: response.status == 200 && answer.stored == 1 && answer.rejected.map(\.code) == ["invalidText", "invalidText"]
        )
    }

    /// A meta line ten times what the namespace allows, beside a normal one.
    func oversizedMeta() async throws -> HostileTorture.Case {
        let long = HostileUploads.metaLine("long-\(UUID().uuidString)", extra: ["text": .string(String(repeating: "x", count: 100_000))])
        let body = try uploads.meta([long, HostileUploads.metaLine("short-\(UUID().uuidString)")])
        let response = try await post(body, kind: .meta).0
        let answer = UploadAnswer(body: response.body)
        return .init(
            name: "oversized_meta", sent: "a 100 KB meta line (the namespace allows 10 KiB) and a normal one",
            happened: "HTTP \(response.status), stored \(answer.stored), rejected \(answer.rejected.map(\.code))",
            held: response.status == 200 && answer.stored == 1 && answer.rejected.map(\.code) == ["metaTooLarge"]
        )
    }

    /// Idle connections from one stranger's address, and a real upload from another meanwhile.
    /// - Returns: the case, and the real upload's time in milliseconds.
    func idleFlood(_ wanted: Int) async throws -> (HostileTorture.Case, Double) {
        let flood = IdleFlood()
        defer { flood.close() }
        let count = min(wanted, (OpenFileLimit.current ?? 20_000) - 1_500)
        let clock = ContinuousClock()
        let start = clock.now
        let opened = try await onThread { [port] in flood.open(count, from: "127.0.0.2", to: port) }
        let openMs = start.duration(to: clock.now).seconds * 1_000
        let legit = try uploads.meta([HostileUploads.metaLine("legit-\(UUID().uuidString)")])
        let (answer, legitMs) = try await post(legit, kind: .meta)
        let closed = try await onThread { flood.waitForClosed(opened - 512, timeout: .seconds(10)) }
        let held = opened - closed
        let passed = answer.status == 200 && legitMs < 1_000 && held <= 512
        return (
            .init(
                name: "idle_flood", sent: "\(opened) idle connections from 127.0.0.2 (opened in \(Int(openMs)) ms)",
                happened: "the collector held \(held) and closed the rest; a real upload answered HTTP \(answer.status) in \(Int(legitMs)) ms",
                held: passed
            ), legitMs
        )
    }

    /// Connections that send an upload's head and part of a 4 MiB body, then stall.
    func stalledBodies(_ count: Int, timeout: Duration) async throws -> HostileTorture.Case {
        let flood = IdleFlood()
        defer { flood.close() }
        let head =
            "POST \(HermesPath.upload(.meta)) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(HermesHeader.appKey): \(Self.appKey)\r\n"
            + "\(HermesHeader.namespace): \(HostileTorture.namespace)\r\nContent-Length: \((4 << 20) - 1)\r\n\r\n"
            + String(repeating: "x", count: 1_024)
        let clock = ContinuousClock()
        let start = clock.now
        let opened = try await onThread { [port] in flood.open(count, from: "127.0.0.3", to: port, sending: head) }
        let closed = try await onThread { flood.waitForClosed(opened, timeout: timeout + .seconds(10)) }
        let ms = start.duration(to: clock.now).seconds * 1_000
        return .init(
            name: "stalled_bodies", sent: "\(opened) uploads of 4 MiB - 1 bytes that stall after 1 KiB",
            happened: "\(closed) closed by the collector within \(Int(ms)) ms (read timeout \(timeout))",
            held: closed == opened
        )
    }
}
