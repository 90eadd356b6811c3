#if canImport(FoundationNetworking)
import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif
import HermesWire

/// A ``Transport`` over `URLSession` (FoundationNetworking on Linux): what ``PlatformTransport``, the
/// default, uses for `https://` and on Apple platforms.
public struct URLSessionTransport: Transport {
    private let session: URLSession

    /// Creates a transport over `session`; the default is an ephemeral session without caching.
    public init(session: URLSession = URLSession(configuration: .ephemeral)) {
        self.session = session
    }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.timeoutInterval = Double(request.timeout.components.seconds) + Double(request.timeout.components.attoseconds) * 1e-18
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        let body = request.body.isEmpty ? nil : Data(request.body)
        let exchange = Exchange()
        let (data, response) = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, URLResponse), any Error>) in
                let completion: @Sendable (Data?, URLResponse?, (any Error)?) -> Void = { data, response, error in
                    if let response, error == nil {
                        exchange.finish(.success((data ?? Data(), response)))
                    } else {
                        exchange.finish(.failure(error ?? URLError(.badServerResponse)))
                    }
                }
                exchange.start(
                    body.map { session.uploadTask(with: urlRequest, from: $0, completionHandler: completion) }
                        ?? session.dataTask(with: urlRequest, completionHandler: completion),
                    continuation: continuation)
            }
        } onCancel: {
            exchange.cancel()
        }
        guard let http = response as? HTTPURLResponse else {
            throw URLError(.badServerResponse)
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return TransportResponse(status: http.statusCode, headers: headers, body: Array(data))
    }

    /// One request: its `URLSessionTask`, and the caller waiting for it, resumed exactly once.
    ///
    /// A cancelled caller is answered `URLError(.cancelled)` at once, from another queue (never
    /// inside the cancellation handler, which holds the Swift task's lock). On Linux the
    /// `URLSessionTask` itself is left to end on its own (within the request's timeout):
    /// FoundationNetworking's `cancel()` waits for the session's queue, which may at that moment
    /// be resuming the task being cancelled (a deadlock seen in this project's test suite with
    /// the `async` `data(for:)` and `upload(for:from:)`), and it traps when it races the task's
    /// completion. Elsewhere the task is cancelled too.
    private final class Exchange: Sendable {
        private struct State {
            var continuation: CheckedContinuation<(Data, URLResponse), any Error>?
            var task: URLSessionTask?
            var cancelled = false
        }

        private let state = Locked(State())

        /// Starts `task` for `continuation`, or answers it cancelled if the caller already was.
        func start(_ task: URLSessionTask, continuation: CheckedContinuation<(Data, URLResponse), any Error>) {
            let cancelled = state.withLock { state in
                guard !state.cancelled else { return true }
                state.continuation = continuation
                state.task = task
                return false
            }
            if cancelled {
                continuation.resume(throwing: URLError(.cancelled))
            } else {
                task.resume()
            }
        }

        /// The task's outcome, for the caller unless it was answered cancelled already.
        func finish(_ result: Result<(Data, URLResponse), any Error>) {
            let continuation = state.withLock { state in
                defer { state.continuation = nil }
                return state.continuation
            }
            continuation?.resume(with: result)
        }

        /// Answers the caller cancelled, now or as soon as the request starts.
        func cancel() {
            let (continuation, task) = state.withLock { state in
                state.cancelled = true
                defer { state.continuation = nil }
                return (state.continuation, state.task)
            }
            DispatchQueue.global().async {
                continuation?.resume(throwing: URLError(.cancelled))
                if Self.cancelsTasks { task?.cancel() }
            }
        }

        /// Whether a cancelled caller's `URLSessionTask` is cancelled too: not with
        /// FoundationNetworking, whose `cancel()` can deadlock or trap (see above).
        #if canImport(FoundationNetworking)
        private static let cancelsTasks = false
        #else
        private static let cancelsTasks = true
        #endif
    }
}
