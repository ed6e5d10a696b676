import Foundation

/// A lazily filled, thread-safe cache cell (internal to ``Animator``).
final class _ReplayBox<Value: Sendable>: Sendable {
  private let cached = Locked<Value?>(nil)

  func value(_ make: () -> Value) -> Value {
    cached.withLock { cached in
      if let cached { return cached }
      let v = make()
      cached = v
      return v
    }
  }
}

extension Animator.ReplayState {
  /// Replays the script: commands in (time, call order); chain groups schedule their successors.
  static func replay(
    script: [Animator.Scheduled], chains: [AnimationChain<Root>], model: Root, horizon: Double = 3600,
    limit: Int = 100_000, outside: Animator.OutsideHandover? = nil
  ) -> Self {
    var state = Self()
    state.horizon = horizon
    state.limit = limit
    state.outside = outside
    state.pending = script.sorted { a, b in a.time != b.time ? a.time > b.time : a.seq > b.seq }
    while let next = state.pending.popLast() {
      switch next.command {
      case .add(let request, let id):
        state.start(request, id: id, at: next.time, chain: nil, model: model)
      case .remove(let key):
        state.interrupt(key, at: next.time)
      case .chainGroup(let chainID, let groupIndex):
        state.runGroup(chains, chainID, groupIndex, at: next.time, model: model)
      case .completion(let index):
        let s = state.segments[index]
        if s.finished && s.end == next.time { state.complete(index, at: next.time, finished: true) }
      }
    }
    return state
  }

  mutating func schedule(_ s: Animator.Scheduled) {
    // Keep `pending` sorted descending by (time, seq): binary search for the slot.
    var lo = 0
    var hi = pending.count
    while lo < hi {
      let mid = (lo + hi) / 2
      let m = pending[mid]
      if m.time > s.time || (m.time == s.time && m.seq > s.seq) { lo = mid + 1 } else { hi = mid }
    }
    pending.insert(s, at: lo)
  }

  /// Cuts the animation under `key` at `t` if it is still running; cancels its chain.
  mutating func interrupt(_ key: AnimationKey, at t: Double) {
    guard let i = current[key], segments[i].end > t else { return }
    segments[i].end = t
    segments[i].finished = false
    if let chain = segments[i].chain { cancelledChains.insert(chain.id) }
    complete(i, at: t, finished: false)
  }

  /// Runs segment `index`'s completion handler (once), scheduling what it adds.
  mutating func complete(_ index: Int, at t: Double, finished: Bool) {
    guard let handler = continuations[index], !continued.contains(index) else { return }
    continued.insert(index)
    let s = segments[index]
    var schedule = AnimatorSchedule<Root>(
      completion: AnimatorCompletion(time: t, key: s.key, animationID: s.id, finished: finished))
    handler(schedule.completion, &schedule)
    for (time, command) in schedule.commands {
      guard time <= horizon, continuationCalls < limit else {
        truncated = true
        continue
      }
      continuationCalls += 1
      var command = command
      if case .add(let request, _) = command {
        command = .add(request, onAdded: nextChainID)
        nextChainID += 1
      }
      self.schedule(Animator.Scheduled(time: time, seq: nextSeq, command: command))
      nextSeq += 1
    }
  }

  mutating func start(
    _ request: any _AddRequestProtocol<Root>, id: Int, at t: Double, chain: (id: Int, group: Int)?, model: Root
  ) {
    let key = request.key
    let previous = current[key].map { segments[$0] }
    let segment = request.makeSegment(
      id: id, at: t, previous: previous, model: model, chain: chain, outside: outside)
    if !segment.hasFiniteValues && !nonFinite.contains(key) { nonFinite.append(key) }
    interrupt(key, at: t)
    if current[key] == nil { keyOrder.append(key) }
    current[key] = segments.count
    byKey[key, default: []].append(segments.count)
    indexByID[id] = segments.count
    if let handler = request.continuation {
      continuations[segments.count] = handler
      if segment.naturalEnd.isFinite {
        schedule(
          Animator.Scheduled(time: segment.naturalEnd, seq: nextSeq, command: .completion(segment: segments.count)))
        nextSeq += 1
      }
    }
    segments.append(segment)
  }

  mutating func runGroup(
    _ chains: [AnimationChain<Root>], _ chainID: Int, _ groupIndex: Int, at t: Double, model: Root
  ) {
    let chain = chains[chainID]
    guard groupIndex < chain.groups.count, !cancelledChains.contains(chainID) else { return }
    // A group only starts if every animation of the previous group finished by itself.
    if groupIndex > 0, let previous = chainGroupSegments[chainID]?[groupIndex - 1] {
      for i in previous where !segments[i].finished { return }
    }
    let group = chain.groups[groupIndex]
    var members: [Int] = []
    var end = t
    for request in group.requests {
      let id = nextChainID
      nextChainID += 1
      start(request, id: id, at: t, chain: (chainID, groupIndex), model: model)
      members.append(segments.count - 1)
      end = max(end, segments[segments.count - 1].naturalEnd)
    }
    chainGroupSegments[chainID, default: [:]][groupIndex] = members
    for _ in group.callbacks {
      callbacks.append((t, segments.count, nextChainID, chainID, groupIndex))
      nextChainID += 1
    }
    guard end.isFinite, groupIndex + 1 < chain.groups.count else { return }
    let nextStart = end + chain.groups[groupIndex + 1].delayBefore
    schedule(
      Animator.Scheduled(time: nextStart, seq: nextSeq, command: .chainGroup(chain: chainID, group: groupIndex + 1)))
    nextSeq += 1
  }
}

extension Animator {
  // MARK: - Events

  /// Every discrete event with `from < time ≤ to` (`from` may be `-infinity`), in the documented
  /// order: by time, then by the order the animations were scheduled, then start, reachedTarget,
  /// repeated, completed. Pure: it does not fire anything. An event a few ulps after `to` is
  /// reached at `to`, as the frame there shows it (``MediaTiming/hasReached(_:at:leftLimit:)``),
  /// and so is not after `from`: a start at 0.1 + 0.2 fires when the clock reaches 0.3, once.
  public func events(after from: Double, through to: Double) -> [AnimatorEvent] {
    var out: [(AnimatorEvent, Int, Int, Int)] = []
    let state = self.state
    var order = 0
    func inRange(_ time: Double) -> Bool {
      !MediaTiming.hasReached(time, at: from) && MediaTiming.hasReached(time, at: to)
    }
    func add(_ time: Double, _ s: any _SegmentProtocol<Root>, _ kind: AnimatorEvent.Kind, rank: Int, sub: Int = 0) {
      guard inRange(time) else { return }
      out.append((AnimatorEvent(time: time, key: s.key, animationID: s.id, kind: kind), order, rank, sub))
    }
    for (index, s) in state.segments.enumerated() {
      order = index
      if !MediaTiming.hasReached(s.start, at: to) || s.end < from { continue }
      add(min(s.begin, s.end), s, .start, rank: 0)
      if let r = s.reachTime, r < s.end || (r == s.end && s.finished) { add(r, s, .reachedTarget, rank: 1) }
      for (k, t) in s.repeatTimes(until: to) { add(t, s, .repeated(iteration: k), rank: 2, sub: k) }
      if s.end.isFinite { add(s.end, s, .completed(finished: s.finished), rank: 3) }
    }
    for c in state.callbacks where inRange(c.time) {
      let key = AnimationKey(object: "chain#\(c.chain)", key: "group\(c.group)")
      out.append((AnimatorEvent(time: c.time, key: key, animationID: c.id, kind: .callback), c.order, -1, 0))
    }
    out.sort { a, b in
      if a.0.time != b.0.time { return a.0.time < b.0.time }
      if a.1 != b.1 { return a.1 < b.1 }
      if a.2 != b.2 { return a.2 < b.2 }
      return a.3 < b.3
    }
    return out.map(\.0)
  }

  /// Plays the clock forward to `t`: fires every event in `(time, t]` in order (completion
  /// observers and chain callbacks run at their exact times), then writes ``sample(at:)`` into
  /// ``model``, emits `applied` and calls each running animation's `onChange`.
  ///
  /// - Returns: The discrete events fired, in order (without `applied`).
  /// - Throws: ``AnimatorError`` when `t` is before ``time``.
  @discardableResult
  public mutating func advance(to t: Double) throws(AnimatorError) -> [AnimatorEvent] {
    guard t.isFinite, t >= time else {
      throw AnimatorError("cannot advance to \(t) s: the clock is at \(time) s and only moves forward")
    }
    let state = self.state
    let fired = events(after: time == 0 && !started ? -.infinity : time, through: t)
    started = true
    for e in fired {
      tracer?.record(.event(e))
      switch e.kind {
      case .completed(let finished):
        if let i = state.indexByID[e.animationID] { state.segments[i].notifyCompletion(finished: finished) }
      case .callback:
        if let c = state.callbacks.first(where: { $0.id == e.animationID }) {
          for cb in chains[c.chain].groups[c.group].callbacks { cb(e.time) }
        }
      default: break
      }
    }
    time = t
    model = sample(at: t)
    for key in state.keyOrder {
      guard let s = segment(for: key, at: t), t <= s.end || !s.end.isFinite else { continue }
      if t > s.end { continue }
      tracer?.record(.event(AnimatorEvent(time: t, key: key, animationID: s.id, kind: .applied)))
      tracer?.record(.write(time: t, key: key, property: s.propertyName, value: s.describeValue(at: t)))
      s.notifyChange(at: t)
    }
    return fired
  }
}
