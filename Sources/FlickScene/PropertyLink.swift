import FlickMotion

/// What a ``PropertyLink`` reads: scene time, or a number property of a layer.
package enum LinkSource: Sendable {
  /// Scene time, seconds (After Effects' `time`).
  case time
  /// The number property `property` of the layer `layerID` (a component such as `positionX`).
  case property(LayerProperty<Double>, layerID: String)

  /// `"time"` or `"layer.property"`, as templates write it.
  package var name: String {
    switch self {
    case .time: "time"
    case .property(let p, let id): "\(id).\(p.name)"
    }
  }
}

/// A property given as a function of another at the same instant, or of time: After Effects
/// expressions, Remotion's `interpolate`, Framer's `useTransform`. From scene time ``begin`` on
/// (until a later animation of the property takes over), `property` of `layerID` is
/// `mapping(source(t))`, with velocity `mapping′(source(t)) · source′(t)`: the chain rule, with
/// the one-sided slope on the side the source comes from, left and right limits alike. The
/// source is read from ``PropertyTracks`` analytically (no sampling, no differences), so a
/// link of a link works, and so does a spring that takes over from a link.
package struct PropertyLink<Value: Animatable>: TrackLink {
  /// The linked property.
  package let property: LayerProperty<Value>
  /// The layer whose property is linked.
  package let layerID: String
  /// What the link reads.
  package let source: LinkSource
  /// How the source becomes the property's value.
  package let mapping: any InterpolationMapping<Value>
  /// Scene time the link starts, seconds.
  package let begin: Double

  package init(
    property: LayerProperty<Value>, layerID: String, source: LinkSource, mapping: some InterpolationMapping<Value>,
    begin: Double
  ) {
    self.property = property
    self.layerID = layerID
    self.source = source
    self.mapping = mapping
    self.begin = begin
  }

  /// The source's value and rate at scene time `t` from `limit` (a hand-over reads the left limit).
  func sourceState(in tracks: PropertyTracks, at t: Double, limit: TrackLimit) -> (value: Double, rate: Double) {
    switch source {
    case .time: return (t, 1)
    case .property(let p, let id):
      let s = tracks.state(of: p, layerID: id, at: t, limit: limit == .right ? .right : .left)
      return (s.value, s.velocity)
    }
  }

  /// The linked value at scene time `t` from `limit`.
  package func value(in tracks: PropertyTracks, at t: Double, limit: TrackLimit) -> Value {
    let x: Double
    switch source {
    case .time: x = t
    case .property(let p, let id):
      var reader = tracks  // a copy only for its evaluation counter; the segments are shared
      x = reader.value(of: p, layerID: id, at: t, limit: limit == .right ? .right : .left)
    }
    return mapping.value(at: x)
  }

  /// The linked velocity at scene time `t` from `limit`, units per second (the chain rule).
  package func velocity(in tracks: PropertyTracks, at t: Double, limit: TrackLimit) -> Value {
    let (x, rate) = sourceState(in: tracks, at: t, limit: limit)
    guard rate != 0 else { return .zero }
    return mapping.slope(at: x, side: InterpolationSide(rate: rate, leftLimit: limit != .right)).scaled(by: rate)
  }

  /// The property the link reads (nil for time).
  package var sourceRead: (layerID: String, name: String)? {
    if case .property(let p, let id) = source { return (id, p.name) }
    return nil
  }

  /// The scene time after which the link's value stops changing (see ``LinkCurve/duration``).
  package func settleTime(in tracks: PropertyTracks) -> Double {
    switch source {
    case .time: return max(begin, mapping.constantAbove)
    case .property(let p, let id): return max(begin, tracks.settleTime(of: p.name, layerID: id))
    }
  }
}

/// A ``TrackLink`` (a ``PropertyLink``, a ``ConstraintLink``) as an ``AnimationCurve`` of local
/// time (scene time − its begin), over the tracks it reads: what the scene renders. Build it with
/// ``PropertyTracks/curve(for:)`` once every animation of the source is in the tracks.
/// ``duration`` is when the source stops moving (after it the link holds its value), infinite
/// for a link that never settles (a link from time that extends past its last stop).
package struct LinkCurve<Link: TrackLink>: AnimationCurve {
  package typealias Value = Link.Value
  /// The link.
  package let link: Link
  /// The tracks the source is read from.
  package let tracks: PropertyTracks
  package let duration: Double

  private func time(_ local: Double) -> Double { link.begin + max(local, 0) }

  package func value(at t: Double) -> Value { link.value(in: tracks, at: time(t), limit: .right) }
  package func velocity(at t: Double) -> Value { link.velocity(in: tracks, at: time(t), limit: .right) }
  package func value(before t: Double) -> Value {
    t > 0 ? link.value(in: tracks, at: time(t), limit: .left) : value(at: 0)
  }
  package func velocity(before t: Double) -> Value {
    t > 0 ? link.velocity(in: tracks, at: time(t), limit: .left) : velocity(at: 0)
  }
}

/// A link in a ``PropertyTracks`` track: live from its begin until a later segment wins.
struct LinkSegment<Link: TrackLink>: TrackSegment {
  let link: Link
  let order: Int
  var begin: Double { link.begin }
  var duration: Double { .infinity }

  func isApplied(at local: Double, limit: TrackLimit) -> Bool { true }
  var reach: Double { .infinity }

  func writeValue(
    into layer: inout Layer, at local: Double, limit: TrackLimit, in tracks: PropertyTracks, time t: Double
  ) {
    link.property.write(&layer, link.value(in: tracks, at: t, limit: limit))
  }

  func writeVelocity(
    into layer: inout Layer, at local: Double, limit: TrackLimit, in tracks: PropertyTracks, time t: Double
  ) {
    link.property.write(&layer, link.velocity(in: tracks, at: t, limit: limit))
  }

  var sourceRead: (layerID: String, name: String)? { link.sourceRead }
  func settleTime(in tracks: PropertyTracks) -> Double { link.settleTime(in: tracks) }
}

/// A read of a property at a time that a read through a link depends on (see
/// ``PropertyTracks/linkReads(of:layerID:at:limit:)``).
package struct LinkRead: Sendable, Equatable {
  /// The layer read.
  package var layerID: String
  /// The property read.
  package var name: String
  /// Scene time of the read.
  package var time: Double
  /// Whether the read included segments that begin exactly at ``time`` (a right limit).
  package var includesBegin: Bool

  /// Whether a segment of this property beginning at `begin` would change what the read saw.
  package func isChanged(byBegin begin: Double) -> Bool {
    MediaTiming.hasReached(begin, at: time, leftLimit: !includesBegin)
  }
}

/// Why a link cannot join a ``PropertyTracks``.
package enum LinkError: Error, Sendable, Equatable {
  /// The link would close a cycle: each `layer.property` reads the next and the last is the
  /// first (`["a.rotation", "b.positionX", "a.rotation"]`).
  case cycle([String])
  /// Reading a property would go through more than `limit` links in a row (the longest chain).
  case tooDeep(chain: [String], limit: Int)
}

extension PropertyTracks {
  /// The most links one read may go through in a row: reading a number component can meet two
  /// links (`position` and `positionX`), so a read costs at most 2^8 link evaluations.
  package static var maximumLinkDepth: Int { 8 }

  /// Adds `link` to the track of its property; later appends win over it where they apply.
  ///
  /// - Throws: ``LinkError/cycle(_:)`` when the property would (through other links, at any
  ///   time) read itself, ``LinkError/tooDeep(chain:limit:)`` when a chain of links would be
  ///   longer than ``maximumLinkDepth``. The tracks are unchanged then.
  package mutating func append(_ link: some TrackLink) throws(LinkError) {
    let target = LinkNode(layerID: link.layerID, name: link.property.name)
    if let read = link.sourceRead {
      let source = LinkNode(layerID: read.layerID, name: read.name)
      var dead: Set<LinkNode> = []
      if let cycle = path(from: source, to: target, &dead) { throw .cycle(([target] + cycle).map(\.description)) }
      let up = upstream(of: target)
      let down = downstream(of: source)
      if up.count + down.count + 1 > Self.maximumLinkDepth {
        throw .tooDeep(chain: (up + [target, source] + down).map(\.description), limit: Self.maximumLinkDepth)
      }
    }
    appendSegment(layerID: link.layerID, name: link.property.name) { LinkSegment(link: link, order: $0) }
  }

  /// The link segments whose targets a read of `node` sees, with the nodes they read.
  private func links(read node: LinkNode) -> [LinkNode] {
    guard let byName = segments[node.layerID] else { return [] }
    var out: [LinkNode] = []
    for related in AnyLayerProperty.overlapping(node.name) {
      for segment in byName[related] ?? [] {
        if let read = segment.sourceRead {
          let n = LinkNode(layerID: read.layerID, name: read.name)
          if !out.contains(n) { out.append(n) }
        }
      }
    }
    return out
  }

  /// A chain of reads from `node` to something `target` writes (`node` first, the last one
  /// overlapping `target`), or nil. The graph without the new link has no cycle; `dead` holds
  /// the nodes known not to lead there, so each node is explored once.
  private func path(from node: LinkNode, to target: LinkNode, _ dead: inout Set<LinkNode>) -> [LinkNode]? {
    if node.overlaps(target) { return [node] }
    guard !dead.contains(node) else { return nil }
    for next in links(read: node) {
      if let rest = path(from: next, to: target, &dead) { return [node] + rest }
    }
    dead.insert(node)
    return nil
  }

  /// The longest chain of reads below `node` (what it reads, what that reads, …), `node` excluded.
  private func downstream(of node: LinkNode) -> [LinkNode] {
    var memo: [LinkNode: [LinkNode]] = [:]
    return downstream(of: node, &memo)
  }

  private func downstream(of node: LinkNode, _ memo: inout [LinkNode: [LinkNode]]) -> [LinkNode] {
    if let known = memo[node] { return known }
    var best: [LinkNode] = []
    for next in links(read: node) {
      let chain = [next] + downstream(of: next, &memo)
      if chain.count > best.count { best = chain }
    }
    memo[node] = best
    return best
  }

  /// The longest chain of links above `node` (the targets of links that read it, …), outermost
  /// first, `node` excluded.
  private func upstream(of node: LinkNode) -> [LinkNode] {
    // Who reads what, by the layer read: (reader, read) pairs, each once.
    var readers: [String: [(reader: LinkNode, read: LinkNode)]] = [:]
    var seen: Set<[LinkNode]> = []
    for (layerID, byName) in segments {
      for (name, list) in byName {
        for segment in list {
          guard let read = segment.sourceRead else { continue }
          let edge = (LinkNode(layerID: layerID, name: name), LinkNode(layerID: read.layerID, name: read.name))
          if seen.insert([edge.0, edge.1]).inserted { readers[read.layerID, default: []].append(edge) }
        }
      }
    }
    var memo: [LinkNode: [LinkNode]] = [:]
    func above(_ node: LinkNode) -> [LinkNode] {
      if let known = memo[node] { return known }
      var best: [LinkNode] = []
      for edge in readers[node.layerID] ?? [] where edge.read.overlaps(node) {
        let chain = above(edge.reader) + [edge.reader]
        if chain.count > best.count { best = chain }
      }
      memo[node] = best
      return best
    }
    return above(node)
  }
}

extension PropertyTracks {
  /// The curve the scene renders for `link`, reading the source from these tracks: build it
  /// after every animation the link reads is appended.
  package func curve<Link: TrackLink>(for link: Link) -> LinkCurve<Link> {
    let settle = LinkSegment(link: link, order: 0).settleTime(in: self)
    return LinkCurve(link: link, tracks: self, duration: settle.isFinite ? settle - link.begin : .infinity)
  }

  /// The scene time after which nothing in the tracks changes `name` on `layerID` (every
  /// segment writing its state has ended; links settle when their sources do), or 0.
  package func settleTime(of name: String, layerID: String) -> Double {
    var memo: [LinkNode: Double] = [:]
    return settleTime(of: LinkNode(layerID: layerID, name: name), &memo)
  }

  /// ``settleTime(of:layerID:)``, each property of a graph of links visited once.
  private func settleTime(of node: LinkNode, _ memo: inout [LinkNode: Double]) -> Double {
    if let known = memo[node] { return known }
    var end = 0.0
    for related in AnyLayerProperty.overlapping(node.name) {
      for segment in segments[node.layerID]?[related] ?? [] {
        if let read = segment.sourceRead {
          end = max(end, segment.begin, settleTime(of: LinkNode(layerID: read.layerID, name: read.name), &memo))
        } else {
          end = max(end, segment.settleTime(in: self))
        }
      }
    }
    memo[node] = end
    return end
  }

  /// Every property read (layer, name, time, side) that the value of `name` on `layerID` at `t`
  /// from `limit` depends on through the links active then, links of links included; empty
  /// when no link is active. A compiler that reads a value through a link must not later add
  /// a segment that would change one of these reads (``LinkRead/isChanged(byBegin:)``).
  package func linkReads(of name: String, layerID: String, at t: Double, limit: TrackLimit) -> [LinkRead] {
    var out: [LinkRead] = []
    var pending = [(layerID, name, limit)]
    while let (id, n, side) = pending.popLast() {
      for (segment, _, segmentSide) in active(n, layerID: id, at: t, limit: side) {
        guard let read = segment.sourceRead else { continue }
        let readSide: TrackLimit = segmentSide == .right ? .right : .left
        out.append(LinkRead(layerID: read.layerID, name: read.name, time: t, includesBegin: readSide == .right))
        pending.append((read.layerID, read.name, readSide))
      }
    }
    return out
  }

  /// Every property that links on `name` of `layerID` begun before `t` read, links of links
  /// included, as reads at `t` (left limits): what a read of the whole motion up to `t` (an
  /// autoreversing repeat playing it backwards) depends on, whichever link was active when.
  package func linkReads(of name: String, layerID: String, before t: Double) -> [LinkRead] {
    var out: [LinkRead] = []
    var seen: Set<LinkNode> = []
    var pending = [LinkNode(layerID: layerID, name: name)]
    while let node = pending.popLast() {
      guard let byName = segments[node.layerID] else { continue }
      for related in AnyLayerProperty.overlapping(node.name) {
        for segment in byName[related] ?? [] where MediaTiming.hasReached(segment.begin, at: t, leftLimit: true) {
          guard let read = segment.sourceRead else { continue }
          let source = LinkNode(layerID: read.layerID, name: read.name)
          guard seen.insert(source).inserted else { continue }
          out.append(LinkRead(layerID: read.layerID, name: read.name, time: t, includesBegin: false))
          pending.append(source)
        }
      }
    }
    return out
  }
}

extension AnyLayerProperty {
  /// Whether the names `a` and `b` write some of the same layer state: equal, or one is the
  /// whole (`position`) that the other is a part of (`positionX`). Two parts of one whole
  /// (`positionX`, `positionY`) do not, so `positionY` may be linked to `positionX`.
  package static func writesOverlap(_ a: String, _ b: String) -> Bool {
    if a == b { return true }
    guard sameState(as: a).contains(b) else { return false }
    return LayerPropertyDescriptor.named(a)?.partOf == nil || LayerPropertyDescriptor.named(b)?.partOf == nil
  }

  /// Every name that writes some of the state `name` writes (``writesOverlap(_:_:)``), `name`
  /// included, in ``sameState(as:)`` order: what a read of `name` must look at.
  package static func overlapping(_ name: String) -> [String] { overlapTable[name] ?? [name] }

  private static let overlapTable: [String: [String]] = {
    var out: [String: [String]] = [:]
    for group in stateGroups { for name in group { out[name] = group.filter { writesOverlap($0, name) } } }
    return out
  }()
}

/// A property of a layer, as a node of the graph of links.
struct LinkNode: Hashable, CustomStringConvertible {
  var layerID: String
  var name: String
  var description: String { "\(quoted: layerID).\(quoted: name)" }
  func overlaps(_ other: LinkNode) -> Bool {
    layerID == other.layerID && AnyLayerProperty.writesOverlap(name, other.name)
  }
}
