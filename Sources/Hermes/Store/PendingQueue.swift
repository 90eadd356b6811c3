/// The records accepted by `send` and not yet taken by the store's writer, in chunks of a fixed
/// capacity: appending never copies a long array, and the writer takes a transaction's worth of
/// records by moving chunks, not by copying records, while callers wait on the same lock.
struct PendingQueue {
    /// Records per chunk; a transaction is made of whole chunks.
    static let chunkCapacity = 500

    private var chunks: [[PendingRecord]] = []
    /// Records in the queue.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func append(_ record: PendingRecord) {
        if chunks.last.map({ $0.count == Self.chunkCapacity }) ?? true {
            var chunk: [PendingRecord] = []
            chunk.reserveCapacity(Self.chunkCapacity)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(record)
        count += 1
    }

    /// Removes the oldest chunks holding up to `limit` records (at least one chunk).
    mutating func takeFront(upTo limit: Int) -> [[PendingRecord]] {
        var taken = 0
        var total = 0
        while taken < chunks.count, taken == 0 || total + chunks[taken].count <= limit {
            total += chunks[taken].count
            taken += 1
        }
        let front = Array(chunks.prefix(taken))
        chunks.removeFirst(taken)
        count -= total
        return front
    }

    /// Puts back chunks taken by ``takeFront(upTo:)``, ahead of everything queued since.
    mutating func putBack(_ front: [[PendingRecord]]) {
        chunks.insert(contentsOf: front, at: 0)
        count += front.reduce(0) { $0 + $1.count }
    }
}
