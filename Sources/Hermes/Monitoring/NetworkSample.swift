public import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HermesWire

/// The fields of a `net` or `netError` record, built from a finished request: no I/O, so the
/// rules (how paths are templated, which fields a failure carries) are tested alone.
public enum NetworkSample: Sendable {
    /// The path with its ids templated out: segments of digits, UUIDs and long hexadecimal
    /// strings become `:id`, so that samples of one endpoint group together.
    ///
    /// ```swift
    /// NetworkSample.pathTemplate("/v1/users/42/orders/9f1c2a7e-55aa-4c1e-9e61-2d2f4b0c1a9e")
    /// // "/v1/users/:id/orders/:id"
    /// ```
    public static func pathTemplate(_ path: String) -> String {
        guard !path.isEmpty else { return "/" }
        return path.split(separator: "/", omittingEmptySubsequences: false)
            .map { isIdentifier($0) ? ":id" : String($0) }
            .joined(separator: "/")
    }

    private static func isIdentifier(_ segment: Substring) -> Bool {
        guard !segment.isEmpty else { return false }
        if segment.allSatisfy(\.isASCIIDigit) { return true }
        if UUID(uuidString: String(segment)) != nil { return true }
        let hex = segment.filter { $0 != "-" }
        return hex.count >= 16 && hex.allSatisfy(\.isHexDigit) && hex.contains(where: \.isASCIIDigit)
    }

    /// What one request measured, and where the figures came from.
    struct Measurement: Sendable, Equatable {
        var duration: Duration
        /// Body bytes sent and received (on the wire, when from the task's metrics).
        var requestBytes: Int64
        var responseBytes: Int64
        /// `metrics` (`URLSessionTaskMetrics`) or `sdk` (Hermes' own clock and the bodies' sizes).
        var source: String

        /// The task's metrics when the platform filled them (a task interval and at least one
        /// transaction), else the SDK's own measurement. Foundation on Linux leaves them empty.
        static func choose(metrics: Measurement?, own: Measurement) -> Measurement {
            guard let metrics, metrics.duration > .zero else { return own }
            return metrics
        }
    }

    /// The fields every sample has: method, host, templated path, duration, bytes, their source.
    static func common(request: URLRequest, _ measurement: Measurement) -> [String: JSONValue] {
        [
            "method": .string(request.httpMethod ?? "GET"),
            "host": .string(request.url?.host ?? ""),
            "path": .string(pathTemplate(request.url?.path ?? "")),
            "durationMs": .int(measurement.duration.milliseconds),
            "requestBytes": .int(measurement.requestBytes),
            "responseBytes": .int(measurement.responseBytes),
            "timing": .string(measurement.source),
        ]
    }

    /// A `net` sample: a response arrived (whatever its status).
    static func response(request: URLRequest, status: Int, _ measurement: Measurement) -> [String: JSONValue] {
        var meta = common(request: request, measurement)
        meta["status"] = .int(Int64(status))
        return meta
    }

    /// A `netError` sample: no response, with the error's domain and code
    /// (`NSURLErrorDomain` -1004 for a refused connection, -1001 for a timeout).
    static func failure(request: URLRequest, error: any Error, _ measurement: Measurement) -> [String: JSONValue] {
        var meta = common(request: request, measurement)
        let error = error as NSError
        meta["errorDomain"] = .string(error.domain)
        meta["errorCode"] = .int(Int64(error.code))
        return meta
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
