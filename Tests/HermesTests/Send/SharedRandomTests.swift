@testable import Hermes
import HermesWire
import Testing

struct SharedRandomTests {
    private static func units(seed: UInt64, count: Int) -> [Double] {
        var reference = SplitMix64(seed: seed)
        return (0..<count).map { _ in Double(reference.next() >> 11) * 0x1p-53 }
    }

    @Test func drawsFollowOneSplitMix64Sequence() {
        let shared = SharedRandom(seed: 7)
        let draws = (0..<100).map { _ in shared.nextUnit() }
        #expect(draws == Self.units(seed: 7, count: 100))
        #expect(draws.allSatisfy { (0..<1).contains($0) })
    }

    @Test func concurrentCallersShareTheSequenceWithoutRepeatingAStep() async {
        let shared = SharedRandom(seed: 42)
        let draws = await withTaskGroup(of: [Double].self) { group in
            for _ in 0..<4 { group.addTask { (0..<1_000).map { _ in shared.nextUnit() } } }
            return await group.reduce(into: [Double]()) { $0 += $1 }
        }
        #expect(draws.sorted() == Self.units(seed: 42, count: 4_000).sorted())
    }
}
