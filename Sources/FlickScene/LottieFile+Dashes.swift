import Foundation

/// Dashed strokes rlottie 0.1 cannot finish: its dasher (VDasher) cuts every path a stroke
/// paints into dash-long pieces, keeping them all in memory, with no limit. A dash or gap below
/// zero never moves it on (a 1 KB file grew to 5.6 GB and died in `std::bad_alloc`); a pattern
/// tiny against the path makes tens of millions of pieces (dashes of 0.01 on a 10⁵-point
/// rectangle took 791 MB). Each is refused as a feature, placed like the other unbounded geometry.
extension LottieFeatureInspector {
  /// The most dash pieces one stroke may cut its paths into: the longest path the stroke paints
  /// (an upper bound, in the stroke's own coordinates) over its pattern's shortest length, times
  /// the dashes in one pattern. rlottie holds each piece as a path of about 40 bytes, so the cap
  /// is about 40 MB a stroke; a rectangle at the coordinate cap (±10⁶ points, 8 · 10⁶ round)
  /// can still be dashed with a pattern 8 points long.
  static let mostDashes = 1e6

  /// Checks every dashed stroke (`st`, `gs` with a `d` array) of one shape list, a layer's
  /// `shapes` or a group's `it`, against the paths above it in the list (those it paints), and
  /// the groups of the list in turn. `above` is the chain of transforms over the list (the
  /// layer's, its parents', its precomposition layers'); a group adds its own transform, a
  /// repeater its copies' to what precedes it, stroke included (``LottieDashStretch``).
  mutating func noteUnboundedDashes(_ items: [LottieJSON], at place: String, above: LottieDashStretch, depth: Int = 0) {
    guard depth < 512 else { return }
    var copies = [LottieDashStretch](repeating: LottieDashStretch(), count: items.count)
    var repeated = LottieDashStretch()
    for j in items.indices.reversed() {
      copies[j] = repeated
      if items[j]["ty"]?.text == "rp" { repeated = repeated.then(LottieDashStretch.repeater(items[j])) }
    }
    // The paths are measured only for a list that strokes them with dashes.
    let dashed = items.contains { Self.isDashedStroke($0) }
    var length = 0.0
    for (j, item) in items.enumerated() where item.members != nil {
      let chain = above.then(copies[j])
      if Self.isDashedStroke(item) {
        noteDashes(item["d"]?.items ?? [], over: length, stretched: chain.factor, at: place)
      }
      if item["ty"]?.text == "gr", let inner = item["it"]?.items {
        let transform = inner.filter { $0["ty"]?.text == "tr" }.reduce(LottieDashStretch()) {
          $0.then(LottieDashStretch.transform($1))
        }
        noteUnboundedDashes(inner, at: place, above: chain.then(transform), depth: depth + 1)
      }
      if dashed { length = Self.lengthAfter(item, length: length, depth: 0) }
    }
  }

  private static func isDashedStroke(_ item: LottieJSON) -> Bool {
    guard let ty = item["ty"]?.text, ty == "st" || ty == "gs" else { return false }
    return !(item["d"]?.items ?? []).isEmpty
  }

  /// Checks one stroke's dash entries as rlottie reads them in the copy it is given (the
  /// inspected tree; ``LottieDashList`` has put them in the order lottie-web reads, an odd dash
  /// array doubled and a missing offset added): every entry's `v` in order (however many; its
  /// names `n` aside). With an odd number the last is the offset and the others dash and gap
  /// lengths; with an even number the last is the offset too, and the one before it is a dash
  /// whose gap is as long (`[d, o]` dashes as `[d, d]` from `o`). `stretched` is how much the
  /// transforms above make the paths longer than the dashes.
  private mutating func noteDashes(
    _ entries: [LottieJSON], over length: Double, stretched: Double, at place: String
  ) {
    var shortest = 0.0
    var lengths = 0
    for (index, entry) in entries.enumerated() {
      let name = entry["n"]?.text.map { LottieJSON.shown($0, limit: 8) } ?? "?"
      guard let (low, high) = Self.range(entry["v"]) else { continue }
      if !low.isFinite || !high.isFinite {
        return note(place, "a stroke dash '\(name)' that is not a finite number")
      }
      // The offset: the last entry.
      guard index < entries.count - 1 else { continue }
      if low < 0 {
        return note(
          place, "a stroke dash '\(name)' of \(Self.shownNumber(low)) points (dashes and gaps must be 0 or more)")
      }
      // An even count's last dash is its own gap too.
      let times = entries.count % 2 == 0 && index == entries.count - 2 ? 2 : 1
      shortest += low * Double(times)
      lengths += times
    }
    guard lengths > 0 else { return }
    if shortest <= 0 {
      // A pattern 0 at every moment is drawn solid (LottieDashList leaves it out of the copy).
      return note(
        place,
        "a stroke dash pattern of length 0 at some moment (its dashes' and gaps' lowest values add up to 0; "
          + "at least one must stay above 0, or all be 0 for a solid stroke)")
    }
    let pieces = length * stretched / shortest * Double(lengths / 2)
    if pieces > Self.mostDashes {
      let stretch =
        stretched > 1
        ? ", drawn up to \(Self.shownNumber(stretched)) times longer than its dashes by the transforms above it" : ""
      note(
        place,
        "a stroke dash pattern of \(Self.shownNumber(shortest)) points over paths up to "
          + "\(Self.shownNumber(length)) points long\(stretch) (\(Self.shownNumber(pieces)) dashes; "
          + "up to \(Self.shownNumber(Self.mostDashes)) are drawn)")
    }
  }

  /// The lowest and highest value an animatable number takes: its `k`, or between its
  /// keyframes' `s` and `e`, stretched by easing handles that overshoot (a `y` outside 0…1).
  static func range(_ property: LottieJSON?) -> (Double, Double)? {
    guard let k = property?["k"] else { return nil }
    guard let frames = k.items, frames.contains(where: { $0.members != nil }) else {
      let values = numbers(k)
      guard let low = values.min(), let high = values.max() else { return nil }
      return (low, high)
    }
    var low = Double.infinity
    var high = -Double.infinity
    for (i, frame) in frames.enumerated() where frame.members != nil {
      let start = numbers(frame["s"])
      let end = frame["e"].map { numbers($0) } ?? (i + 1 < frames.count ? numbers(frames[i + 1]["s"]) : start)
      let (least, most) = progressRange(frame)
      for (s, e) in zip(start, end.isEmpty ? start : end) {
        for v in [s, e, s + (e - s) * least, s + (e - s) * most] {
          low = min(low, v.isNaN ? -.infinity : v)
          high = max(high, v.isNaN ? .infinity : v)
        }
      }
    }
    return low <= high ? (low, high) : nil
  }

  /// The progress a keyframe's easing reaches between its values: 0…1, stretched by easing
  /// handles that overshoot (a `y` outside 0…1).
  static func progressRange(_ frame: LottieJSON) -> (Double, Double) {
    let handles = numbers(frame["o"]?["y"]) + numbers(frame["i"]?["y"])
    return (min(0, handles.min() ?? 0), max(1, handles.max() ?? 1))
  }

  /// The numbers of a value: itself, or an array's numbers (one level).
  static func numbers(_ value: LottieJSON?) -> [Double] {
    if let n = value?.numberValue { return [n] }
    return value?.items?.compactMap(\.numberValue) ?? []
  }

  /// The longest the paths painted by what follows `item` in its list may be, given `length`
  /// before it: a shape adds its longest outline, a group its paths scaled by its transform, a
  /// repeater multiplies what is above it by its copies and their growth.
  private static func lengthAfter(_ item: LottieJSON, length: Double, depth: Int) -> Double {
    guard depth < 64, let ty = item["ty"]?.text else { return length }
    let far = { (key: String) in largestValue(item[key]) ?? 0 }
    switch ty {
    case "rc", "el": return length + 4 * far("s")
    case "sr": return length + 12 * far("pt") * max(far("or"), far("ir"))
    case "sh": return length + outlineLength(item["ks"])
    case "gr":
      var inner = 0.0
      var scale = 1.0
      for child in item["it"]?.items ?? [] where child.members != nil {
        if child["ty"]?.text == "tr" { scale = (largestValue(child["s"]) ?? 100) / 100 }
        inner = lengthAfter(child, length: inner, depth: depth + 1)
      }
      return length + inner * scale
    case "rp":
      // Copy i (from the offset `o` on) is scaled by `s` to the power i: below 0 too.
      let copies = max(0, largestValue(item["c"]) ?? 0)
      let (low, high) = range(item["o"]) ?? (0, 0)
      let scales = (item["tr"]?["s"]).map { LottieDashStretch.allValues($0) } ?? []
      let largest = (scales.map(abs).max() ?? 100) / 100
      let mixed = scales.contains { $0 < 0 } && scales.contains { $0 > 0 }
      let smallest = mixed ? 0 : (scales.map(abs).min() ?? 100) / 100
      let up = copies > 0 ? pow(largest, min(max(0, high + copies - 1), 10_000)) : 1
      let down = pow(smallest, max(min(0, low), -10_000))
      return length * copies * max(1, up, down)
    default: return length
    }
  }

  /// The longest control polygon of a path property's shapes (static, or any keyframe's `s`
  /// and `e`): a Bézier is never longer than its control polygon, and a shape between two
  /// keyframes never longer than the longer of the two.
  private static func outlineLength(_ property: LottieJSON?) -> Double {
    guard let k = property?["k"] else { return 0 }
    var shapes: [LottieJSON] = []
    for value in k.items ?? [k] where value.members != nil {
      if value["v"] != nil { shapes.append(value) }
      shapes += (value["s"]?.items ?? []) + (value["e"]?.items ?? [])
    }
    return shapes.map(polygonLength).max() ?? 0
  }

  private static func polygonLength(_ shape: LottieJSON) -> Double {
    func point(_ key: String, _ i: Int) -> (Double, Double) {
      guard let p = shape[key]?.items, i < p.count, let xy = p[i].items, xy.count >= 2 else { return (0, 0) }
      return (xy[0].numberValue ?? 0, xy[1].numberValue ?? 0)
    }
    let count = shape["v"]?.items?.count ?? 0
    let closed = shape["c"]?.numberValue == 1
    var total = 0.0
    for i in 0..<count where i + 1 < count || closed {
      let j = (i + 1) % count
      let (v0, o0, i1, v1) = (point("v", i), point("o", i), point("i", j), point("v", j))
      total += hypot(o0.0, o0.1) + hypot(i1.0, i1.1)
      total += hypot(v1.0 + i1.0 - v0.0 - o0.0, v1.1 + i1.1 - v0.1 - o0.1)
    }
    return total
  }
}
