/// The `fraction` percentile of samples sorted in ascending order: the sample at index
/// `count × fraction`, the last one past the end. `sorted` must not be empty.
package func percentile<Sample>(_ fraction: Double, ofSorted sorted: [Sample]) -> Sample {
    sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}
