/// Something that happened to an animation, at an exact (sub-frame) scene time.
///
/// Order at a single instant, for one animation: ``Kind/start``, ``Kind/reachedTarget``,
/// ``Kind/repeated(iteration:)``, ``Kind/completed(finished:)``. Between animations, events at the
/// same time are ordered by when they were scheduled (the interrupted animation's
/// `completed(finished: false)` comes before its replacement's `start`). ``Kind/applied`` is
/// emitted for each sample ``Animator/advance(to:)`` writes, after all discrete events up to
/// that time.
public struct AnimatorEvent: Sendable, Hashable, CustomStringConvertible {
  /// The kinds of event.
  public enum Kind: Sendable, Hashable {
    /// The animation began (its begin time, after any delay).
    case start
    /// The value reached (or first crossed) the target; for a motion that never crosses, just
    /// before completion.
    case reachedTarget
    /// Iteration `iteration` (1-based count of completed iterations) began.
    case repeated(iteration: Int)
    /// The animation ended: `finished` is true when it ran to its end, false when it was
    /// replaced, removed or its chain was cancelled.
    case completed(finished: Bool)
    /// A sample was written.
    case applied
    /// A chain callback (`then { … }`) ran.
    case callback
  }

  /// Scene time, seconds.
  public var time: Double
  /// The animation slot.
  public var key: AnimationKey
  /// The animation's id (``Animator/add(_:property:timing:at:onComplete:_:)`` returns it).
  public var animationID: Int
  /// What happened.
  public var kind: Kind

  public init(time: Double, key: AnimationKey, animationID: Int, kind: Kind) {
    self.time = time
    self.key = key
    self.animationID = animationID
    self.kind = kind
  }

  public var description: String { "\(time) \(escaped: key)#\(escaped: animationID) \(escaped: kind)" }
}

/// Records every event and written value (Pop's `POPAnimationTracer`), for debugging and tests.
package struct AnimationTracer: Sendable {
  /// One record.
  package enum Record: Sendable, CustomStringConvertible {
    /// An event.
    case event(AnimatorEvent)
    /// A value written through a property (`description` of the value).
    case write(time: Double, key: AnimationKey, property: String, value: String)

    package var description: String {
      switch self {
      case .event(let e): return e.description
      case .write(let t, let k, let p, let v): return "\(t) \(escaped: k) write \(escaped: p) = \(escaped: v)"
      }
    }
  }

  /// Everything recorded, in order.
  package private(set) var records: [Record] = []

  package init() {}

  mutating func record(_ r: Record) { records.append(r) }

  /// Only the events.
  package var events: [AnimatorEvent] {
    records.compactMap { if case .event(let e) = $0 { return e } else { return nil } }
  }
}
