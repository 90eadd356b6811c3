import GRDB

/// Runs a store operation, turning any error it throws that is not already a ``CollectorError``
/// into ``CollectorError/Code/storageFailed``, described without SQL arguments or record contents.
/// - Parameters:
///   - action: what the operation does, for the message ("store the batch").
///   - isolation: the caller's actor, on which `work` runs.
///   - work: the operation.
func withStorageErrors<T: Sendable>(
    _ action: String,
    isolation: isolated (any Actor)? = #isolation,
    _ work: () async throws -> T
) async throws(CollectorError) -> T {
    do {
        return try await work()
    } catch let error as CollectorError {
        throw error
    } catch {
        throw CollectorError(.storageFailed, "could not \(action): \(describeStorageError(error))", underlying: error)
    }
}

/// A store error's description without the SQL arguments GRDB may attach (they hold record contents).
func describeStorageError(_ error: any Error) -> String {
    guard let error = error as? DatabaseError else { return String(describing: type(of: error)) }
    return "SQLite error \(error.resultCode.rawValue): \(error.message ?? "no message")"
}
