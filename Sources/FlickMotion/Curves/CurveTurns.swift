/// Where a curve's value may change direction, for a search that must see every extreme of it
/// (a template's `when` crossing): the nearest instant where it may jump or turn, and how close
/// together its other turns may come before it.
///
/// ``AnimationCurve/turns(after:)`` looks forward from a local time, ``AnimationCurve/turns(before:)``
/// backward. A search that stops at every ``next`` and, in between, steps at most half the
/// ``spacing`` meets at most one turn per step, and a turn inside a step shows as a change of the
/// velocity's sign between its ends.
public struct CurveTurns: Sendable, Hashable {
  /// The nearest local time past the asked one (later looking forward, earlier looking back)
  /// where the value or its velocity may jump, or where the value turns at an instant the curve
  /// knows; `±infinity` when there is none.
  public var next: Double
  /// Between the asked time and ``next`` any two turns of the value (zeros of its velocity) are
  /// at least this many seconds apart; `.infinity` when it turns at most once there.
  public var spacing: Double

  public init(next: Double, spacing: Double = .infinity) {
    self.next = next
    self.spacing = spacing
  }

  /// No known break that way, at most one turn: what a curve that says nothing gives.
  public static func none(forward: Bool) -> CurveTurns { CurveTurns(next: forward ? .infinity : -.infinity) }

  /// The first of the sorted `breaks` after `t` (forward) or the last before it.
  public static func nearest(to t: Double, in breaks: [Double], forward: Bool, spacing: Double = .infinity)
    -> CurveTurns
  {
    var lo = 0
    var hi = breaks.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if forward ? breaks[mid] <= t : breaks[mid] < t { lo = mid + 1 } else { hi = mid }
    }
    if forward { return CurveTurns(next: lo < breaks.count ? breaks[lo] : .infinity, spacing: spacing) }
    return CurveTurns(next: lo > 0 ? breaks[lo - 1] : -.infinity, spacing: spacing)
  }

  /// The nearer break of the two (looking `forward` or back) and the smaller spacing.
  public func merged(with other: CurveTurns, forward: Bool) -> CurveTurns {
    CurveTurns(next: forward ? min(next, other.next) : max(next, other.next), spacing: min(spacing, other.spacing))
  }

  /// This answer for a time axis `u = origin + scale · t` (scale > 0): a break at local `t` is at
  /// `u`, spacings grow by `scale`.
  public func mapped(origin: Double, scale: Double) -> CurveTurns {
    CurveTurns(next: next.isFinite ? origin + scale * next : next, spacing: spacing * scale)
  }
}
