import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import Hermes
import HermesWire
import Hummingbird
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct InstrumentedSessionTests {
    @Test func aResponseIsSampledWithItsTemplatedPathStatusAndBytes() async throws {
        let harness = Harness()
        let client = try harness.client()
        let router = Router()
        router.post("/v1/users/:id/orders") { _, _ in Response(status: .created, body: .init(byteBuffer: ByteBuffer(string: "created!"))) }

        try await withLoopbackServer(router) { port in
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/users/42/orders")!)
            request.httpMethod = "POST"
            request.httpBody = Data("{\"n\":1}".utf8)
            let (data, _) = try await client.instrumented(URLSession(configuration: .ephemeral)).data(for: request)
            #expect(data == Data("created!".utf8))
        }
        try await client.flush()

        let sample = try #require(try Self.samples(harness).first)
        #expect(sample[RecordField.monitorType] == .string(MonitorType.net))
        #expect(sample["method"] == "POST")
        #expect(sample["host"] == "127.0.0.1")
        #expect(sample["path"] == "/v1/users/:id/orders")
        #expect(sample["status"] == .int(201))
        #expect(sample["requestBytes"] == .int(7))
        #expect(sample["responseBytes"] == .int(8))
        #expect(sample["durationMs"]?.intValue.map { $0 >= 0 } == true)
        #expect(sample["timing"] == "sdk", "Foundation on Linux fills no task metrics")
        await client.shutdown()
    }

    @Test func aRefusedConnectionIsSampledAsNetErrorWithItsCode() async throws {
        let harness = Harness()
        let client = try harness.client()
        let port = ListeningSocket.refusingPort

        await #expect(throws: (any Error).self) {
            _ = try await client.instrumented(URLSession(configuration: .ephemeral)).data(
                for: URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/items/7")!))
        }
        try await client.flush()

        let sample = try #require(try Self.samples(harness).first)
        #expect(sample[RecordField.monitorType] == .string(MonitorType.netError))
        #expect(sample["path"] == "/v1/items/:id")
        #expect(sample["errorDomain"] == .string(NSURLErrorDomain))
        #expect(sample["errorCode"] == .int(Int64(URLError.cannotConnectToHost.rawValue)))
        await client.shutdown()
    }

    @Test func aServerThatNeverAnswersIsSampledAsATimeout() async throws {
        let harness = Harness()
        let client = try harness.client()
        // Accepts connections (the kernel's backlog) and never answers.
        let silent = try ListeningSocket()
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(silent.port)/slow")!)
        // Whole seconds: Foundation on Linux cuts a fraction of a second off the timeout.
        request.timeoutInterval = 1

        await #expect(throws: (any Error).self) {
            _ = try await client.instrumented(URLSession(configuration: .ephemeral)).data(for: request)
        }
        try await client.flush()

        let sample = try #require(try Self.samples(harness).first)
        #expect(sample[RecordField.monitorType] == .string(MonitorType.netError))
        #expect(sample["errorCode"] == .int(Int64(URLError.timedOut.rawValue)))
        #expect(sample["durationMs"]?.intValue.map { $0 >= 900 } == true, "\(sample)")
        await client.shutdown()
        silent.close()
    }

    @Test func samplesAreNotRecordedWhenNetworkMonitoringIsOff() async throws {
        let harness = Harness()
        var configuration = harness.configuration()
        configuration.monitoring.network = false
        let client = try HermesClient(configuration: configuration)
        let port = ListeningSocket.refusingPort

        _ = try? await client.instrumented().data(for: URLRequest(url: URL(string: "http://127.0.0.1:\(port)/")!))
        try await client.flush()

        #expect(try Self.samples(harness).isEmpty)
        await client.shutdown()
    }

    /// The `net` and `netError` records in the store.
    static func samples(_ harness: Harness) throws -> [JSONValue] {
        try harness.metas("meta").filter {
            [.string(MonitorType.net), .string(MonitorType.netError)].contains($0[RecordField.monitorType])
        }
    }
}

/// A TCP socket listening on 127.0.0.1 that never accepts: connections wait in its backlog.
final class ListeningSocket: Sendable {
    let descriptor: Int32
    let port: Int

    init() throws {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && listen(descriptor, 16) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard descriptor >= 0, bound else { throw POSIXError(.EADDRNOTAVAIL) }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Port 1 on the loopback, where nothing listens: a connection there is refused. (A port
    /// just freed can be taken by another test's server before the request is sent.)
    static let refusingPort = 1

    func close() {
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Darwin.close(descriptor)
        #endif
    }
}
