import FlickExpectations
import FlickTestSupport
import Testing

@testable import FlickTemplates

/// The order checks a repeat's reruns go through (``AnimationOrder``): the same verdicts as a
/// scan of every earlier rerun, found by a binary search, so unrolling `n` iterations looks at
/// `O(n log n)` earlier animations instead of `O(n²)`. Counted, not timed.
@Suite struct AnimationOrderTests {
  /// The verdicts as the order checks used to find them: every rerun listed since the last
  /// animation that is not one, filtered for those that begin later.
  struct Reference {
    var fixed: [String: AnimationOrder.Entry] = [:]
    var reruns: [String: [AnimationOrder.Entry]] = [:]

    /// Indices of the reruns an animation from `begin` cuts, or nil when it is out of order.
    func verdict(_ key: String, begin: Double) -> [Int]? {
      if let anchor = fixed[key], anchor.begin > begin { return nil }
      return (reruns[key] ?? []).filter { $0.begin > begin }.map(\.index)
    }

    mutating func cut(_ key: String, after begin: Double) { reruns[key]?.removeAll { $0.begin > begin } }

    mutating func record(_ key: String, _ entry: AnimationOrder.Entry, rerun: Bool) {
      if rerun {
        reruns[key, default: []].append(entry)
      } else {
        fixed[key] = entry
        reruns[key] = nil
      }
    }
  }

  /// The verdict as indices of the reruns cut, nil for out of order.
  static func indices(_ v: AnimationOrder.Verdict) -> [Int]? {
    switch v {
    case .inOrder: []
    case .interrupts(let cut): cut.map(\.index)
    case .outOfOrder: nil
    }
  }

  @Test func theSameVerdictsAsAScanOfEveryRerun() {
    var random = SeededGenerator(seed: 7)
    for _ in 0..<50 {
      var order = AnimationOrder()
      var reference = Reference()
      for index in 0..<200 {
        let key = ["a.positionX", "a.opacity"].randomElement(using: &random)!
        // Whole seconds, so that reruns often begin together.
        let begin = Double(Int.random(in: 0..<20, using: &random))
        let rerun = Int.random(in: 0..<4, using: &random) > 0
        let expected = reference.verdict(key, begin: begin)
        let found = Self.indices(order.verdict(key, begin: begin))
        expectEqual(found, expected, "animation \(index) of \(key) from \(begin) s")
        guard expected != nil else { continue }  // refused: the template stops there
        order.cut(key, after: begin)
        reference.cut(key, after: begin)
        let entry = AnimationOrder.Entry(begin: begin, path: "timeline[\(index)]", index: index)
        order.record(key, entry, rerun: rerun)
        reference.record(key, entry, rerun: rerun)
      }
    }
  }

  @Test func aLongRepeatLooksAtLogarithmicallyManyEarlierReruns() {
    // A repeat of 4,096 iterations of one animation: each rerun is checked against the ones
    // before it. A scan of every earlier rerun looked at 8,386,560 of them.
    let n = 4096
    var order = AnimationOrder()
    for i in 0..<n {
      let begin = Double(i) * 0.036
      expectEqual(Self.indices(order.verdict("a.positionX", begin: begin)), [])
      order.record("a.positionX", AnimationOrder.Entry(begin: begin, path: "timeline[0]", index: i), rerun: i > 0)
    }
    expectGreater(order.examined, 0)
    expectLessOrEqual(order.examined, n * 13, "\(order.examined) earlier reruns looked at for \(n) animations")
    // An entry after the loop that starts inside it cuts the reruns that begin later.
    let cut = Self.indices(order.verdict("a.positionX", begin: 100))
    expectEqual(cut, Array(2778..<n))
  }
}
