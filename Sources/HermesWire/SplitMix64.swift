/// A small, fast, seedable random number generator (SplitMix64).
///
/// For reproducible sampling, benchmark data and fuzz inputs; never for keys or nonces.
///
/// ```swift
/// var random = SplitMix64(seed: 42)
/// let roll = Double.random(in: 0..<1, using: &random)
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// What each ``next()`` adds to the state before mixing it: a generator seeded with a state
    /// another one had continues that one's sequence from there, so a state shared by several
    /// threads can advance with one atomic add of this value.
    public static let increment: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// Creates a generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= Self.increment
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
