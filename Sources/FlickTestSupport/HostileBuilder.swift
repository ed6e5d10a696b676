/// The random choices of the hostile-input generators (``HostileTemplate``, ``HostileManifest``,
/// ``HostileLottie``, ``HostileSVG``), every one drawn from the builder's seeded generator so
/// that a case is rebuilt from its seed.
protocol HostileBuilder {
  /// The seeded generator every choice comes from.
  var g: SeededGenerator { get set }
  /// How hostile the case is: the chance, from 0 to 1, that ``hot()`` is true.
  var heat: Double { get }
}

extension HostileBuilder {
  /// True with probability `p` (0 to 1).
  mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &g) < p }
  /// A whole number in `r`.
  mutating func int(_ r: ClosedRange<Int>) -> Int { Int.random(in: r, using: &g) }
  /// One of `items` (not empty).
  mutating func pick<T>(_ items: [T]) -> T { items[int(0...items.count - 1)] }
  /// Whether to make this part hostile (true with probability ``heat``).
  mutating func hot() -> Bool { chance(heat) }

  /// The case `make` builds with this builder; `g` (the generator the builder started from)
  /// then goes on after the builder's choices.
  func build<Case>(_ g: inout SeededGenerator, _ make: (inout Self) -> Case) -> Case {
    var builder = self
    let made = make(&builder)
    g = builder.g
    return made
  }
}
