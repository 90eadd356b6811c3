/// What an upload's answer means for its batch (specification §6.4).
enum ResponseAction: Equatable, Sendable {
    /// 2xx: stored; delete the batch.
    case delete
    /// Network error, 5xx, 429 (and anything unexpected): back to pending, back off.
    case retry(retryAfter: Duration?)
    /// 413: the batch is too large for the server; halve it.
    case halve
    /// Other 4xx: the batch is malformed; count an attempt on each row.
    case countAttempt

    init(status: Int, retryAfter: String?) {
        switch status {
        case 200..<300: self = .delete
        case 413: self = .halve
        case 429, 500..<600, 408: self = .retry(retryAfter: RetryPolicy.retryAfter(retryAfter))
        case 400..<500: self = .countAttempt
        default: self = .retry(retryAfter: nil)
        }
    }
}
