import Foundation
import NIOCore
import NIOPosix

/// One `GET` of a streamed answer over loopback, its body read as it comes and dropped: what
/// `hermes bench export` downloads with. Counts the body's bytes and lines (`\n`), de-chunking
/// `Transfer-Encoding: chunked`, and calls `progress` with the lines so far after each read.
struct ExportDownload {
    /// The answer's status, body bytes and lines.
    struct Outcome {
        var status = 0
        var bytes = 0
        var lines = 0
    }

    /// The answer's parts, read in order.
    private enum State {
        case head
        case chunkSize
        case chunk(remaining: Int)
        case chunkEnd
        case done
    }

    private var state = State.head
    private var pending: [UInt8] = []
    private(set) var outcome = Outcome()

    /// Whether the last chunk was read.
    var isDone: Bool {
        if case .done = state { return true }
        return false
    }

    /// Downloads `path` from `127.0.0.1:port` with `headers`.
    static func get(port: Int, path: String, headers: [String: String], progress: (Int) -> Void) async throws -> Outcome {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
            }
        return try await channel.executeThenClose { inbound, outbound in
            let head = headers.map { "\($0.key): \($0.value)\r\n" }.joined()
            try await outbound.write(ByteBuffer(string: "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\(head)\r\n"))
            var download = ExportDownload()
            for try await buffer in inbound {
                try download.take(buffer.readableBytesView)
                progress(download.outcome.lines)
                if download.isDone { break }
            }
            guard download.isDone else { throw RunFailure("GET \(path) ended before its last chunk") }
            return download.outcome
        }
    }

    /// Takes the next bytes of the answer.
    mutating func take(_ bytes: some Collection<UInt8>) throws {
        pending.append(contentsOf: bytes)
        var start = pending.startIndex
        defer { pending.removeSubrange(..<start) }
        while start < pending.endIndex {
            switch state {
            case .head:
                guard let end = Self.find(Array("\r\n\r\n".utf8), in: pending[start...]) else { return }
                let head = String(decoding: pending[start..<end], as: UTF8.self)
                outcome.status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
                guard head.lowercased().contains("transfer-encoding: chunked") else {
                    throw RunFailure("the answer (HTTP \(outcome.status)) is not chunked")
                }
                start = end + 4
                state = .chunkSize
            case .chunkSize:
                guard let end = Self.find(Array("\r\n".utf8), in: pending[start...]) else { return }
                guard let size = Int(String(decoding: pending[start..<end], as: UTF8.self), radix: 16) else {
                    throw RunFailure("a chunk's size cannot be read")
                }
                start = end + 2
                state = size == 0 ? .done : .chunk(remaining: size)
            case .chunk(let remaining):
                let taken = pending[start..<min(pending.endIndex, start + remaining)]
                outcome.bytes += taken.count
                outcome.lines += taken.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
                start += taken.count
                state = taken.count == remaining ? .chunkEnd : .chunk(remaining: remaining - taken.count)
            case .chunkEnd:
                guard pending.endIndex - start >= 2 else { return }
                start += 2
                state = .chunkSize
            case .done:
                return
            }
        }
    }

    private static func find(_ needle: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        for index in bytes.startIndex...(bytes.endIndex - needle.count) where bytes[index..<index + needle.count].elementsEqual(needle) {
            return index
        }
        return nil
    }
}
