/// Nearest-rank percentiles of a set of numbers.
struct Percentiles {
    private let sorted: [Double]

    init(_ values: [Double]) {
        sorted = values.sorted()
    }

    /// The value at or below which `fraction` (0…1) of the values lie, or `nil` when empty.
    func at(_ fraction: Double) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}
