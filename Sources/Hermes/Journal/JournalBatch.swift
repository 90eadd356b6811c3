/// Records read from the journal for one store transaction.
struct JournalBatch {
    var records: [PendingRecord] = []
    /// Frames that could not be read back (a crash tore them, or damage), `lostAtOpen` included.
    var torn = 0
    /// Of `torn`, the frames found lost when the journal opened (segments with a damaged header).
    var lostAtOpen = 0
    /// Where each segment read is to resume once this batch is committed.
    var cursors: [(segment: JournalSegment, offset: Int)] = []
    /// How many of `records` came from the memory buffer (the last ones).
    var fromMemory = 0

    /// Nothing to commit: no record, no torn frame, no cursor moved.
    var isEmpty: Bool { records.isEmpty && torn == 0 && cursors.isEmpty }
}
