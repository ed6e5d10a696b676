import Foundation

/// Values rlottie 0.1 draws otherwise than lottie-web, written in rlottie's copy so that both
/// draw the same, where that is exact; what cannot be written exactly is left as it is and
/// refused by ``LottieFeatureInspector`` (which reads the copy).
///
/// - An opacity (a layer's `ks.o`, a group's `tr.o`, a fill's, stroke's or gradient's `o`, a
///   repeater's `so` and `eo`, a mask's `o`) outside 0…100: lottie-web clamps it (SVG opacity),
///   rlottie 0.1 wraps it around (120 drew as 50, −20 as 205, 100.5 as nothing). A static value
///   is clamped; a keyframed one is clamped at its keyframes when every segment is wholly inside
///   0…100, wholly at or above 100, or wholly at or below 0 (easing overshoot included), where the
///   clamped curve is the curve clamped.
/// - A gradient's opacity stops that are all 1 (any offsets, at every keyframe) are left out:
///   rlottie 0.1 gives an opacity stop between colour stops the next colour stop's colour.
/// - A repeater's end opacity: lottie-web gives copy `i` of `c` the opacity
///   `so + (eo − so) · i / (c − 1)`, rlottie 0.1 `so + (eo − so) · i / c`; with static `so`,
///   `eo` and a whole `c` ≥ 2, `eo` is written `so + (eo − so) · c / (c − 1)`.
/// - A mask of mode `n` (none), which lottie-web ignores, is left out (rlottie 0.1 drew a layer
///   whose masks were all `n` as nothing).
/// - A layer's `ip` and `op` beyond rlottie's whole-number frames (±2³¹) are written as the last
///   whole frame (rlottie 0.1 drew a layer with `op` 2³¹ as nothing).
extension LottieRlottieCopy {
  /// The shape list with every item's opacities, gradient stops and repeater opacities
  /// written for rlottie, groups included.
  static func fidelityShapes(_ list: LottieJSON, depth: Int = 0) -> LottieJSON {
    guard depth < LottieJSON.maximumDepth, let items = list.items else { return list }
    return .array(items.map { shapeItem($0, depth: depth) })
  }

  private static func shapeItem(_ item: LottieJSON, depth: Int) -> LottieJSON {
    guard var members = item.members, let ty = item["ty"]?.text else { return item }
    for j in members.indices {
      switch (ty, members[j].key) {
      case ("gr", "it"): members[j].value = fidelityShapes(members[j].value, depth: depth + 1)
      case ("fl", "o"), ("st", "o"), ("gf", "o"), ("gs", "o"), ("tr", "o"):
        members[j].value = clampedOpacity(members[j].value)
      case ("gf", "g"), ("gs", "g"): members[j].value = withoutOpaqueStops(members[j].value)
      case ("rp", "tr"): members[j].value = repeaterTransform(members[j].value, copies: item["c"])
      default: break
      }
    }
    return .object(members)
  }

  /// A layer's masks without those of mode `n`; nil when none is left.
  static func drawnMasks(_ list: LottieJSON) -> LottieJSON? {
    guard let masks = list.items else { return list }
    let kept = masks.filter { $0["mode"]?.text != "n" }.map { mask -> LottieJSON in
      guard var members = mask.members, let o = members.firstIndex(where: { $0.key == "o" }) else { return mask }
      members[o].value = clampedOpacity(members[o].value)
      return .object(members)
    }
    return kept.isEmpty ? nil : .array(kept)
  }

  /// A layer's `ip` or `op` within the whole frames rlottie 0.1 reads (it drew a layer with an
  /// out point of 2³¹ or an in point below −2³¹ as nothing).
  static func layerTime(_ value: LottieJSON) -> LottieJSON {
    guard let v = value.double else { return value }
    if v > Double(Int32.max) { return .number(String(Int32.max)) }
    if v < Double(Int32.min) { return .number(String(Int32.min)) }
    return value
  }

  /// An opacity property clamped to 0…100 where that is exact (see the type's notes).
  static func clampedOpacity(_ property: LottieJSON) -> LottieJSON {
    guard var members = property.members, let k = members.firstIndex(where: { $0.key == "k" }) else {
      return property
    }
    let value = members[k].value
    if let frames = value.items, frames.contains(where: { $0.members != nil }) {
      // Every segment wholly inside, above or below 0…100, its easing's overshoot included.
      for (i, frame) in frames.enumerated() where frame.members != nil {
        let segment = LottieJSON.object(
          [.init(key: "k", value: .array(Array(frames[i..<min(i + 2, frames.count)])), offset: 0)])
        guard let (low, high) = LottieFeatureInspector.range(segment) else { continue }
        if low < 0 && high > 0 || low < 100 && high > 100 { return property }
      }
      members[k].value = .array(
        frames.map { frame in
          guard var keys = frame.members else { return frame }
          for j in keys.indices where keys[j].key == "s" || keys[j].key == "e" {
            keys[j].value = clamped(keys[j].value)
          }
          return .object(keys)
        })
    } else {
      members[k].value = clamped(value)
    }
    return .object(members)
  }

  /// A number, or an array's numbers, clamped to 0…100 (written as they are when inside).
  private static func clamped(_ value: LottieJSON) -> LottieJSON {
    if let items = value.items { return .array(items.map(clamped)) }
    guard let v = value.double else { return value }
    return v > 100 ? .number("100") : v < 0 ? .number("0") : value
  }

  /// A gradient's `g` without its opacity stops when they are all 1 at every keyframe.
  private static func withoutOpaqueStops(_ gradient: LottieJSON) -> LottieJSON {
    guard var members = gradient.members, let colours = gradient["p"]?.integer, colours >= 0,
      let property = members.firstIndex(where: { $0.key == "k" }),
      var inner = members[property].value.members, let k = inner.firstIndex(where: { $0.key == "k" })
    else { return gradient }
    let count = colours * 4
    func opaqueTail(_ stops: LottieJSON?) -> Bool {
      guard let values = stops?.items else { return stops == nil }
      let tail = values.dropFirst(count)
      return tail.count % 2 == 0
        && tail.enumerated().allSatisfy { index, value in index % 2 == 0 || value.double == 1 }
    }
    func cut(_ stops: LottieJSON) -> LottieJSON { stops.items.map { .array(Array($0.prefix(count))) } ?? stops }
    let value = inner[k].value
    if let frames = value.items, frames.contains(where: { $0.members != nil }) {
      guard frames.allSatisfy({ $0.members == nil || (opaqueTail($0["s"]) && opaqueTail($0["e"])) }) else {
        return gradient
      }
      inner[k].value = .array(
        frames.map { frame in
          guard var keys = frame.members else { return frame }
          for j in keys.indices where keys[j].key == "s" || keys[j].key == "e" { keys[j].value = cut(keys[j].value) }
          return .object(keys)
        })
    } else {
      guard (value.items?.count ?? 0) > count, opaqueTail(value) else { return gradient }
      inner[k].value = cut(value)
    }
    members[property].value = .object(inner)
    return .object(members)
  }

  /// A repeater's transform with its start and end opacity written for rlottie: clamped when
  /// both are the same static value; else, with both static and a static whole number of copies
  /// of at least 2, `eo` written so that rlottie's `i / c` steps give lottie-web's `i / (c − 1)`.
  private static func repeaterTransform(_ transform: LottieJSON, copies: LottieJSON?) -> LottieJSON {
    guard var members = transform.members,
      let so = members.firstIndex(where: { $0.key == "so" }), let eo = members.firstIndex(where: { $0.key == "eo" }),
      let start = staticNumber(members[so].value), let end = staticNumber(members[eo].value)
    else { return transform }
    if start == end {
      members[so].value = clampedOpacity(members[so].value)
      members[eo].value = clampedOpacity(members[eo].value)
      return .object(members)
    }
    guard let c = copies.flatMap(staticNumber), c >= 2, c == c.rounded(), c <= 1e6 else { return transform }
    let written = start + (end - start) * c / (c - 1)
    members[eo].value = .object([
      .init(key: "a", value: .number("0"), offset: 0), .init(key: "k", value: .number("\(written)"), offset: 0),
    ])
    return .object(members)
  }

  /// The value of a property that is not keyframed (`k` a number or a one-number array).
  static func staticNumber(_ property: LottieJSON) -> Double? {
    guard let k = property["k"] else { return nil }
    if let v = k.double { return v }
    if let items = k.items, items.count == 1 { return items[0].double }
    return nil
  }
}
