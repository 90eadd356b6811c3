package import Logging

extension ErasureSubject {
    /// Logs the audit line of an erasure carried out: `records erased` at `notice`, with
    /// `audit=erasure`, the subject, its id, how many records went and who asked (`by`).
    package func logAudit(removed: Int, by requester: String, to logger: Logger) {
        logger.notice(
            "records erased", metadata: ["audit": "erasure", "subject": "\(kind)", "id": "\(id)", "removed": "\(removed)", "by": "\(requester)"])
    }
}
