extension Animator {
  /// Processes pending commands in (time, call order); chain groups schedule their successors.
  mutating func drain() {
    while !state.pending.isEmpty {
      var best = 0
      for i in state.pending.indices.dropFirst() {
        let a = state.pending[i]
        let b = state.pending[best]
        if a.time < b.time || (a.time == b.time && a.seq < b.seq) { best = i }
      }
      let next = state.pending.remove(at: best)
      state.lastTime = max(state.lastTime, next.time)
      process(next)
    }
  }

  private mutating func process(_ s: Scheduled) {
    switch s.command {
    case .add(let request, let id):
      start(request, id: id, at: s.time, chain: nil)
    case .remove(let key):
      interrupt(key, at: s.time)
    case .chainGroup(let chainID, let groupIndex):
      runGroup(chainID, groupIndex, at: s.time)
    }
  }

  /// Cuts the animation under `key` at `t` if it is still running; cancels its chain.
  private mutating func interrupt(_ key: AnimationKey, at t: Double) {
    guard let i = state.current[key], state.segments[i].end > t else { return }
    state.segments[i].end = t
    state.segments[i].finished = false
    if let chain = state.segments[i].chain { state.cancelledChains.insert(chain.id) }
  }

  private mutating func start(
    _ request: any _AddRequestProtocol<Root>, id: Int, at t: Double, chain: (id: Int, group: Int)?
  ) {
    let key = request.key
    let previous = state.current[key].map { state.segments[$0] }
    let segment = request.makeSegment(id: id, at: t, previous: previous, model: initialModel, chain: chain)
    interrupt(key, at: t)
    if state.current[key] == nil { state.keyOrder.append(key) }
    state.current[key] = state.segments.count
    state.segments.append(segment)
  }

  private mutating func runGroup(_ chainID: Int, _ groupIndex: Int, at t: Double) {
    let chain = chains[chainID]
    guard groupIndex < chain.groups.count, !state.cancelledChains.contains(chainID) else { return }
    // A group only starts if every animation of the previous group finished by itself.
    if groupIndex > 0, let previous = state.chainGroupSegments[chainID]?[groupIndex - 1] {
      for i in previous where !state.segments[i].finished { return }
    }
    let group = chain.groups[groupIndex]
    var members: [Int] = []
    var end = t
    for request in group.requests {
      let id = nextID
      nextID += 1
      start(request, id: id, at: t, chain: (chainID, groupIndex))
      members.append(state.segments.count - 1)
      end = max(end, state.segments[state.segments.count - 1].naturalEnd)
    }
    state.chainGroupSegments[chainID, default: [:]][groupIndex] = members
    for _ in group.callbacks {
      state.callbacks.append((t, nextID, chainID, groupIndex))
      nextID += 1
    }
    guard end.isFinite, groupIndex + 1 < chain.groups.count else { return }
    let nextStart = end + chain.groups[groupIndex + 1].delayBefore
    state.pending.append(Scheduled(time: nextStart, seq: nextSeq, command: .chainGroup(chain: chainID, group: groupIndex + 1)))
    nextSeq += 1
  }

  // MARK: - Events

  /// Every discrete event with `from < time ≤ to` (`from` may be `-infinity`), in the documented
  /// order: by time, then by the order the animations were scheduled, then start, reachedTarget,
  /// repeated, completed. Pure: it does not fire anything.
  public func events(after from: Double, through to: Double) -> [AnimatorEvent] {
    var out: [(AnimatorEvent, Int, Int, Int)] = []
    func add(_ time: Double, _ s: any _SegmentProtocol<Root>, _ kind: AnimatorEvent.Kind, rank: Int, sub: Int = 0) {
      guard time > from, time <= to else { return }
      out.append((AnimatorEvent(time: time, key: s.key, animationID: s.id, kind: kind), s.id, rank, sub))
    }
    for s in state.segments {
      if s.start > to || s.end < from { continue }
      add(min(s.begin, s.end), s, .start, rank: 0)
      if let r = s.reachTime, r < s.end || (r == s.end && s.finished) { add(r, s, .reachedTarget, rank: 1) }
      for (k, t) in s.repeatTimes(until: to) { add(t, s, .repeated(iteration: k), rank: 2, sub: k) }
      if s.end.isFinite { add(s.end, s, .completed(finished: s.finished), rank: 3) }
    }
    for c in state.callbacks where c.time > from && c.time <= to {
      let key = AnimationKey(object: "chain#\(c.chain)", key: "group\(c.group)")
      out.append((AnimatorEvent(time: c.time, key: key, animationID: c.order, kind: .callback), c.order, 0, 0))
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
    let fired = events(after: time == 0 && !started ? -.infinity : time, through: t)
    started = true
    for e in fired {
      tracer?.record(.event(e))
      switch e.kind {
      case .completed(let finished):
        if let s = state.segments.first(where: { $0.id == e.animationID }) { s.notifyCompletion(finished: finished) }
      case .callback:
        if let c = state.callbacks.first(where: { $0.order == e.animationID }) {
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
