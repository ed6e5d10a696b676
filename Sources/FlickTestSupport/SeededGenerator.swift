/// SplitMix64: a small seeded random number generator that gives the same sequence on every
/// machine, so a fuzz failure is reproduced from the seed in its message.
package struct SeededGenerator: RandomNumberGenerator {
  package var state: UInt64

  package init(seed: UInt64) {
    self.state = seed
  }

  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
