import Crypto
import Foundation
public import HermesTransport

/// Posts alert payloads to webhooks, signed with the rule's secret, retrying with exponential
/// backoff.
///
/// Each request is a `POST` of ``AlertPayload/jsonBytes()`` with the headers
/// `Content-Type: application/json`, `X-Hermes-Signature: sha256=<hex HMAC-SHA256 of the body,
/// keyed with the secret's text>` (``signature(of:secret:)``), `X-Hermes-Delivery: <firing id>`
/// (the same on every attempt, so a receiver can drop repeats) and `X-Hermes-Timestamp: <seconds
/// since 1970>`. A 2xx answer delivers; a network error, a 5xx or a 429 is tried again after
/// ``Configuration/firstRetryDelay``, then twice that, and so on, up to
/// ``Configuration/attempts`` requests in all; any other answer fails at once.
///
/// ```swift
/// let delivery = WebhookDelivery()
/// let outcome = await delivery.sendTest(rule: rule)
/// print(outcome.status, outcome.responseStatus ?? 0, outcome.lastError ?? "")
/// ```
public struct WebhookDelivery: Sendable {
    /// How deliveries are tried.
    public struct Configuration: Sendable {
        /// The most requests one delivery makes (default 5).
        public var attempts = 5
        /// The wait before the second request; each later wait doubles (default 1 s: 1, 2, 4, 8 s).
        public var firstRetryDelay: Duration = .seconds(1)
        /// How long one request may take (default 10 s).
        public var timeout: Duration = .seconds(10)

        /// The defaults.
        public init() {}
    }

    /// Waits between attempts; `Task.sleep` unless a test injects its own.
    public typealias Sleep = @Sendable (Duration) async throws -> Void

    private let transport: any Transport
    private let configuration: Configuration
    private let wallClock: @Sendable () -> Int64
    private let sleep: Sleep

    /// Creates a delivery.
    /// - Parameters:
    ///   - transport: the HTTP client (default `PlatformTransport`).
    ///   - configuration: attempts, backoff and timeout.
    ///   - wallClock: milliseconds since 1970, for `X-Hermes-Timestamp`.
    ///   - sleep: waits between attempts (default `Task.sleep`).
    public init(
        transport: any Transport = PlatformTransport(), configuration: Configuration = Configuration(),
        wallClock: @escaping @Sendable () -> Int64 = CollectorConfiguration.systemWallClock,
        sleep: @escaping Sleep = { try await Task.sleep(for: $0) }
    ) {
        self.transport = transport
        self.configuration = configuration
        self.wallClock = wallClock
        self.sleep = sleep
    }

    /// `sha256=` and the hexadecimal HMAC-SHA256 of `body` keyed with the UTF-8 bytes of `secret`:
    /// the value of `X-Hermes-Signature`.
    /// - Parameters:
    ///   - body: the request body.
    ///   - secret: the rule's secret, as text.
    public static func signature(of body: [UInt8], secret: String) -> String {
        "sha256=" + Hex.string(HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: Array(secret.utf8))))
    }

    /// Whether an answer with `status` is worth another attempt: a 5xx or a 429.
    /// - Parameter status: the HTTP status.
    public static func isRetryable(status: Int) -> Bool {
        status == 429 || (500...599).contains(status)
    }

    /// Delivers `payload` to `url`, trying again as the configuration says.
    /// - Parameters:
    ///   - payload: what to send.
    ///   - url: the webhook, `http` or `https`.
    ///   - secret: the rule's secret.
    /// - Returns: delivered, or failed with the last error; the attempts made.
    public func deliver(_ payload: AlertPayload, to url: String, secret: String) async -> AlertDelivery {
        await deliver(payload, to: url, secret: secret, attempts: configuration.attempts)
    }

    /// Sends a test payload (state `test`, value 0) to the rule's webhook once, now: the
    /// console's "send a test". Nothing is recorded.
    /// - Parameter rule: the rule whose webhook and secret to use.
    /// - Returns: delivered or failed (with the answer's status or the network error), or
    ///   skipped when the rule has no webhook.
    public func sendTest(rule: AlertRule) async -> AlertDelivery {
        guard let url = rule.webhookURL else { return AlertDelivery(status: .skipped, lastError: "the rule has no webhook URL") }
        var generator = SystemRandomNumberGenerator()
        let payload = AlertPayload(id: Hex.random(bytes: 16, using: &generator), rule: rule, state: .test, value: 0, time: wallClock())
        return await deliver(payload, to: url, secret: rule.secret, attempts: 1)
    }

    private func deliver(_ payload: AlertPayload, to url: String, secret: String, attempts: Int) async -> AlertDelivery {
        guard let target = URL(string: url) else { return AlertDelivery(status: .failed, lastError: "the webhook URL is not valid") }
        let body = payload.jsonBytes()
        var headers = [
            "Content-Type": "application/json",
            "X-Hermes-Signature": Self.signature(of: body, secret: secret),
            "X-Hermes-Delivery": payload.id,
        ]
        var delivery = AlertDelivery(status: .failed)
        for attempt in 1...max(1, attempts) {
            if attempt > 1 {
                do {
                    try await sleep(configuration.firstRetryDelay * (1 << (attempt - 2)))
                } catch {
                    break
                }
            }
            delivery.attempts = attempt
            headers["X-Hermes-Timestamp"] = String(wallClock() / 1_000)
            do {
                let response = try await transport.send(
                    TransportRequest(method: "POST", url: target, headers: headers, body: body, timeout: configuration.timeout))
                delivery.responseStatus = response.status
                if (200..<300).contains(response.status) {
                    delivery.status = .delivered
                    delivery.lastError = nil
                    return delivery
                }
                delivery.lastError = "the webhook answered \(response.status)"
                if !Self.isRetryable(status: response.status) { break }
            } catch {
                delivery.responseStatus = nil
                delivery.lastError = Self.describe(error)
            }
        }
        return delivery
    }

    /// A network error without the URL's path or query (they can hold a token): the socket
    /// transport's code and message, else the error's kind.
    private static func describe(_ error: any Error) -> String {
        if let error = error as? SocketTransportError { return error.description }
        return "no answer: \(type(of: error))"
    }
}
