/// A segment the journal's reader still has to consume, with how far it got.
struct JournalEntry {
    let segment: JournalSegment
    /// Where reserved frames end: the next free byte of the live segment, the segment's end
    /// once sealed, or its capacity for a segment left by an earlier run.
    var end: Int
    /// Where the reader resumes: every frame before it is committed to the store.
    var cursor = JournalSegment.firstFrame
    /// Left by an earlier run: no caller will finish a frame in it, so an unfinished frame is torn.
    let isRecovered: Bool

    var isConsumed: Bool { cursor >= end }
}
