/// The latest scene time each segment of one track may still apply at (its reach), in list
/// order, kept so that a look-up at `t` finds the last segment at or before an index whose reach
/// is at least `t` in O(log n) steps: the segments that ended for good before `t` (a `removed`
/// fill) are passed over together instead of asked one by one.
///
/// A tree of maxima over the reaches: level 0 is the reaches, each level above holds the larger
/// of each pair below it (the last one alone when the level below has an odd count).
struct TrackReach: Sendable {
  private var levels: [[Double]] = [[]]

  init() {}

  /// The reaches `reaches`, in list order.
  init(_ reaches: [Double]) {
    for reach in reaches { append(reach) }
  }

  /// How many segments the track has.
  var count: Int { levels[0].count }

  /// Adds the reach of the segment appended to the track.
  mutating func append(_ reach: Double) {
    levels[0].append(reach)
    var index = levels[0].count - 1
    var level = 0
    while levels[level].count > 1 {
      let parent = index / 2
      let below = levels[level]
      let larger = 2 * parent + 1 < below.count ? max(below[2 * parent], below[2 * parent + 1]) : below[2 * parent]
      if level + 1 == levels.count { levels.append([]) }
      if parent < levels[level + 1].count {
        levels[level + 1][parent] = larger
      } else {
        levels[level + 1].append(larger)
      }
      index = parent
      level += 1
    }
  }

  /// The last index at most `last` whose reach is at least `t` (nil when there is none).
  func lastIndex(atMost last: Int, reaching t: Double) -> Int? {
    guard last >= 0, last < count else { return nil }
    // Blocks from right to left, each ending where the one before it began: a block that is
    // the right half of its parent gives way to the parent, so each level is visited a few times.
    var index = last
    var level = 0
    while index >= 0 {
      if levels[level][index] >= t {
        // The last reach at least `t` inside the block.
        while level > 0 {
          level -= 1
          let right = 2 * index + 1
          index = right < levels[level].count && levels[level][right] >= t ? right : 2 * index
        }
        return index
      }
      index -= 1
      while index >= 0, index % 2 == 1, level + 1 < levels.count {
        index /= 2
        level += 1
      }
    }
    return nil
  }
}
