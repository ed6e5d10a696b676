import FlickMotion

/// The order of the animations of every layer property as the timeline lists them.
///
/// Animations apply in list order, so a later start must come later in the list. A repeat
/// unrolls its loop into runs listed one after another; the runs after the first are *reruns*.
/// A later entry that starts while the loop is going interrupts it, as it would interrupt the
/// same loop written on one animation (`repeatCount`): the reruns of that property that begin
/// after it are cut, and nothing else is. Any other animation listed above that begins later is
/// an order error, blamed on that animation (never on a run the repeat expanded).
struct AnimationOrder {
  /// One animation in the list.
  struct Entry {
    /// Scene seconds.
    var begin: Double
    /// The JSON path of the entry that added it.
    var path: String
    /// Its index in the compiler's list of animations.
    var index: Int
  }

  /// What a new animation from some time means for the animations of one property listed above.
  enum Verdict {
    /// Nothing listed above begins later.
    case inOrder
    /// Only reruns of a loop begin later: they are cut (indices into the list of animations).
    case interrupts([Entry])
    /// This animation, listed above and not a rerun, begins later.
    case outOfOrder(Entry)
  }

  /// Per `layer.property`: the last animation that is not a rerun.
  private var fixed: [String: Entry] = [:]
  /// Per `layer.property`: the reruns listed after ``fixed``, in list order, which is begin
  /// order (an animation is recorded only after the reruns that begin after it were cut).
  private var reruns: [String: [Entry]] = [:]
  /// Earlier animations looked at by ``verdict(_:begin:)`` so far: the compile-cost tests check
  /// that it grows with the logarithm of the reruns, not with their number.
  private(set) var examined = 0

  /// What an animation of `key` from `begin` means for those listed above.
  ///
  /// The reruns that begin later are the end of the list, found by a binary search: a repeat
  /// of `n` iterations checks each of its animations in `O(log n)`, where filtering the whole
  /// list made unrolling quadratic (100,000 iterations of a two-step sequence took 52 s).
  mutating func verdict(_ key: String, begin: Double) -> Verdict {
    if let anchor = fixed[key], Self.begins(anchor.begin, after: begin) { return .outOfOrder(anchor) }
    guard let list = reruns[key] else { return .inOrder }
    let first = Self.firstLater(in: list, than: begin, examined: &examined)
    return first == list.count ? .inOrder : .interrupts(Array(list[first...]))
  }

  /// Whether a begin time `other` comes after `begin`: by more than the boundary tolerance, the
  /// rule every start is decided by (``FlickMotion/MediaTiming/hasReached(_:at:leftLimit:)``). An
  /// entry placed after motions of 0.1 s and 0.2 s (0.30000000000000004) and one written at 0.3
  /// begin at the same instant, where list order decides.
  static func begins(_ other: Double, after begin: Double) -> Bool {
    !MediaTiming.hasReached(other, at: begin)
  }

  /// The index of the first entry of `list` (in begin order) that begins after `begin`
  /// (`list.count` when none does), counting the entries looked at in `examined`.
  static func firstLater(in list: [Entry], than begin: Double, examined: inout Int) -> Int {
    var lo = 0
    var hi = list.count
    while lo < hi {
      let mid = (lo + hi) / 2
      examined += 1
      if begins(list[mid].begin, after: begin) { hi = mid } else { lo = mid + 1 }
    }
    return lo
  }

  /// Notes an animation of `key`; `rerun` when a repeat adds it after its first run.
  mutating func record(_ key: String, _ entry: Entry, rerun: Bool) {
    if rerun {
      reruns[key, default: []].append(entry)
    } else {
      fixed[key] = entry
      reruns[key] = nil
    }
  }

  /// Forgets the reruns of `key` that begin after `begin` (an interruption cut them).
  mutating func cut(_ key: String, after begin: Double) {
    var counted = 0
    // The index first, with no copy of the list left when it is cut in place.
    guard let first = reruns[key].map({ Self.firstLater(in: $0, than: begin, examined: &counted) }) else { return }
    examined += counted
    reruns[key]?.removeSubrange(first...)
  }
}
