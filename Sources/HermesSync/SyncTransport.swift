/// How a ``SyncClient`` reaches the server: one exchange of a request's JSON bytes for the
/// answer's JSON bytes (`POST /v1/sync`).
///
/// Implementations throw when there is no answer (offline, timeout, a status other than 200);
/// the client then applies nothing and sends the same change sets again next time, which the
/// server answers without applying them twice. ``HTTPSyncTransport`` speaks HTTP; tests pass one
/// that calls the server in process.
public protocol SyncTransport: Sendable {
    /// Sends `request` and returns the answer's body.
    /// - Parameter request: a `SyncRequest` as JSON bytes.
    /// - Returns: a `SyncAnswer` as JSON bytes.
    /// - Throws: any error when no answer came.
    func exchange(_ request: [UInt8]) async throws -> [UInt8]
}
