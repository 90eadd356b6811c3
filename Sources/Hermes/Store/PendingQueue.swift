/// The records accepted by `send` and not yet committed, serialized into ``RecordArena``s:
/// appending copies a record's bytes into memory already touched, and the writer takes a
/// transaction's worth of records by taking whole arenas, which it hands back once committed.
///
/// The writer keeps spare arenas ready so that `send` rarely makes one: their number doubles
/// (up to ``maxSpares``) each time a caller had to, and halves each time the queue runs empty.
struct PendingQueue {
    /// Bytes per arena: some 500 records of the usual size.
    static let arenaCapacity = 256 << 10
    static let minSpares = 2
    static let maxSpares = 64

    /// Arenas holding records, oldest first; records are appended to the last.
    private var arenas: [RecordArena] = []
    private var spares: [RecordArena] = []
    private var spareTarget = minSpares
    /// Arenas a caller had to make since the writer last looked.
    private var madeBySend = 0
    /// Records in the queue.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func append(_ record: PendingRecord) {
        if let last = arenas.last, last.append(record) {
            count += 1
            return
        }
        let footprint = RecordArena.footprint(of: record)
        let arena: RecordArena
        if footprint <= Self.arenaCapacity, let spare = spares.popLast() {
            arena = spare
        } else {
            arena = RecordArena(capacity: max(Self.arenaCapacity, footprint))
            madeBySend += 1
        }
        let appended = arena.append(record)
        assert(appended, "an empty arena of the record's size takes it")
        arenas.append(arena)
        count += 1
    }

    /// Removes the oldest arenas holding up to `limit` records (at least one arena); later
    /// records go to another arena.
    mutating func takeFront(upTo limit: Int) -> [RecordArena] {
        var taken = 0
        var total = 0
        while taken < arenas.count, taken == 0 || total + arenas[taken].count <= limit {
            total += arenas[taken].count
            taken += 1
        }
        let front = Array(arenas.prefix(taken))
        arenas.removeFirst(taken)
        count -= total
        return front
    }

    /// Puts back arenas taken by ``takeFront(upTo:)`` and not committed, ahead of everything
    /// queued since.
    mutating func putBack(_ front: [RecordArena]) {
        arenas.insert(contentsOf: front, at: 0)
        count += front.reduce(0) { $0 + $1.count }
    }

    /// Takes back arenas whose records were committed, for reuse, and adjusts how many spares
    /// to keep.
    /// - Returns: how many new spares the writer should make (outside the lock) and ``addSpares(_:)``.
    mutating func recycle(_ committed: [RecordArena]) -> Int {
        if madeBySend > 0 {
            spareTarget = min(Self.maxSpares, spareTarget * 2)
            madeBySend = 0
        } else if arenas.isEmpty {
            spareTarget = max(Self.minSpares, spareTarget / 2)
            spares.removeLast(max(0, spares.count - spareTarget))
        }
        for arena in committed where spares.count < spareTarget && arena.capacity == Self.arenaCapacity {
            arena.reset()
            spares.append(arena)
        }
        return spareTarget - spares.count
    }

    /// Adds spares the writer made.
    mutating func addSpares(_ made: [RecordArena]) {
        spares += made
    }
}
