import Foundation

/// How far the transforms above a dashed stroke can make its paths longer on screen than its
/// dashes. rlottie 0.1 dashes a stroke's paths after mapping them to the screen through every
/// transform above it (parent layers, precomposition layers, groups, repeater copies) and
/// scales the dash lengths by one number: the length that transform gives a unit vector along
/// the diagonal. Under a uniform scale and any rotation both grow alike, and the number of
/// dashes is the one in the stroke's own coordinates; under an uneven scale over a rotation they
/// do not: a parent scaled [100000, 1] % over a child rotated 45° stretched a 100-point line to
/// 70,710 points while its dashes shrank to a hundredth (3.4 million dashes, 23 s, 231 MB).
///
/// The bound per transform is its scale's aspect ratio (larger over smaller magnitude, at the
/// worst moment of any keyframe, easing overshoot included); rotations keep it. Along a chain the
/// ratios multiply (the largest singular value of a product is at most the product of the
/// largest, the smallest at least the product of the smallest, and the diagonal a transform
/// scales the dashes by is at least the smallest). A chain whose rotations are all a whole number
/// of quarter turns, never animated, maps the axes onto the axes; its dashes then shrink by at
/// most √2 against the paths, whatever its scales. Skew is refused elsewhere (rlottie 0.1 ignores
/// it).
struct LottieDashStretch: Equatable {
  /// The product of the transforms' aspect ratios (∞ when one can flatten a direction alone).
  var ratio = 1.0
  /// Whether every rotation of the chain is a fixed multiple of 90°.
  var axisAligned = true

  /// `self` followed by `inner` (a transform below it).
  func then(_ inner: LottieDashStretch) -> LottieDashStretch {
    LottieDashStretch(ratio: ratio * inner.ratio, axisAligned: axisAligned && inner.axisAligned)
  }

  /// The worse of two chains that lead to the same layers (a precomposition used twice).
  func worst(_ other: LottieDashStretch) -> LottieDashStretch {
    LottieDashStretch(ratio: max(ratio, other.ratio), axisAligned: axisAligned && other.axisAligned)
  }

  /// The most the chain makes a path longer against its dashes.
  var factor: Double { axisAligned ? min(ratio, 2.squareRoot()) : ratio }

  /// A layer's `ks`, a group's `tr`: its scale `s` and rotation `r` (`ao: 1` rotates along
  /// the motion path, any angle).
  static func transform(_ transform: LottieJSON?, orientsAlongPath: Bool = false) -> LottieDashStretch {
    LottieDashStretch(
      ratio: scaleRatio(transform?["s"]), axisAligned: !orientsAlongPath && quarterTurns(transform?["r"]))
  }

  /// A repeater's copies: copy `i` (from its offset `o` on) is scaled by `s` to the power `i`
  /// and rotated by `r` times `i`.
  static func repeater(_ item: LottieJSON) -> LottieDashStretch {
    let copies = max(0, LottieFeatureInspector.largestValue(item["c"]) ?? 0)
    let (low, high) = LottieFeatureInspector.range(item["o"]) ?? (0, 0)
    let power = [low, high, low + copies - 1, high + copies - 1].map { abs($0) }.max() ?? 0
    let ratio = scaleRatio(item["tr"]?["s"])
    let rotation = item["tr"]?["r"]
    let wholeOffsets = low == high && low == low.rounded()
    return LottieDashStretch(
      ratio: ratio == 1 || power == 0 ? 1 : pow(ratio, min(power, 1e6)),
      axisAligned: isZero(rotation) || (wholeOffsets && quarterTurns(rotation)))
  }

  /// The largest aspect ratio a scale (`[x, y]` in %) takes: a keyframe moves both values
  /// with one eased progress, so the ratio between two keyframes is at its ends, unless one
  /// value passes 0 there (∞) or both pass it together (the ratio of the other end).
  static func scaleRatio(_ property: LottieJSON?) -> Double {
    guard let k = property?["k"] else { return 1 }
    guard let frames = k.items, frames.contains(where: { $0.members != nil }) else {
      return ratio(LottieFeatureInspector.numbers(k))
    }
    var worst = 1.0
    for (i, frame) in frames.enumerated() where frame.members != nil {
      let start = LottieFeatureInspector.numbers(frame["s"])
      let next = i + 1 < frames.count ? LottieFeatureInspector.numbers(frames[i + 1]["s"]) : []
      let end = frame["e"].map { LottieFeatureInspector.numbers($0) } ?? (next.isEmpty ? start : next)
      let (least, most) = LottieFeatureInspector.progressRange(frame)
      worst = max(worst, segmentRatio(start, end.isEmpty ? start : end, from: least, to: most))
    }
    return worst
  }

  private static func segmentRatio(_ a: [Double], _ b: [Double], from u0: Double, to u1: Double) -> Double {
    guard a.count >= 2, b.count >= 2 else { return 1 }
    let (a1, a2, b1, b2) = (a[0], a[1], b[0], b[1])
    guard [a1, a2, b1, b2].allSatisfy(\.isFinite) else { return .infinity }
    if a1 * b2 == a2 * b1 {
      // Both ends on one line through 0: the ratio is the same all along.
      return a1 == 0 && a2 == 0 ? ratio([b1, b2]) : ratio([a1, a2])
    }
    for (p, q) in [(a1, b1), (a2, b2)] where p != q {
      let root = -p / (q - p)
      if root >= u0 && root <= u1 { return .infinity }
    }
    let at = { (u: Double) in [a1 + (b1 - a1) * u, a2 + (b2 - a2) * u] }
    return max(ratio(at(u0)), ratio(at(u1)))
  }

  /// Larger over smaller magnitude of the first two values (1 for fewer, or for both 0: all
  /// collapses to a point, with its dashes).
  private static func ratio(_ values: [Double]) -> Double {
    guard values.count >= 2 else { return 1 }
    let (x, y) = (abs(values[0]), abs(values[1]))
    guard x.isFinite, y.isFinite else { return .infinity }
    if x == 0 && y == 0 { return 1 }
    return max(x, y) / min(x, y)
  }

  /// Whether a rotation is a multiple of 90° that never changes.
  private static func quarterTurns(_ property: LottieJSON?) -> Bool {
    let values = allValues(property)
    guard let first = values.first else { return true }
    return values.allSatisfy { $0 == first } && first.isFinite && first.truncatingRemainder(dividingBy: 90) == 0
  }

  private static func isZero(_ property: LottieJSON?) -> Bool { allValues(property).allSatisfy { $0 == 0 } }

  /// Every value an animatable number is given: its `k`, or its keyframes' `s` and `e`.
  static func allValues(_ property: LottieJSON?) -> [Double] {
    guard let k = property?["k"] else { return [] }
    guard let frames = k.items, frames.contains(where: { $0.members != nil }) else {
      return LottieFeatureInspector.numbers(k)
    }
    return frames.flatMap { LottieFeatureInspector.numbers($0["s"]) + LottieFeatureInspector.numbers($0["e"]) }
  }

  /// The chain above each layer of a list (`context` above the list: a precomposition layer's),
  /// through its parents: rlottie parents a layer to the first layer of its list whose `ind`
  /// is its `parent` (0 or more); a loop of parents ends the chain.
  static func layerChains(_ layers: [LottieJSON], context: LottieDashStretch) -> [LottieDashStretch] {
    var first: [Int: Int] = [:]
    for (i, layer) in layers.enumerated() {
      if let ind = layer["ind"]?.integer, first[ind] == nil { first[ind] = i }
    }
    let parentOf = layers.map { layer -> Int? in
      guard let p = layer["parent"]?.integer, p >= 0 else { return nil }
      return first[p]
    }
    let own = layers.map { transform($0["ks"], orientsAlongPath: $0["ao"]?.numberValue == 1) }
    var chains = [LottieDashStretch?](repeating: nil, count: layers.count)
    for start in layers.indices where chains[start] == nil {
      var path: [Int] = []
      var seen: Set<Int> = []
      var above = context
      var next: Int? = start
      while let i = next {
        if let known = chains[i] {
          above = known
          break
        }
        guard seen.insert(i).inserted else { break }
        path.append(i)
        next = parentOf[i]
      }
      for i in path.reversed() {
        above = above.then(own[i])
        chains[i] = above
      }
    }
    return chains.map { $0 ?? context }
  }

  /// The worst chain above each precomposition (by asset `id`), over every layer that uses it,
  /// however deeply nested; a precomposition nobody uses is not in it.
  static func precompositionContexts(_ root: LottieJSON) -> [String: LottieDashStretch] {
    var assets: [(id: String, layers: [LottieJSON])] = []
    for asset in root["assets"]?.items ?? [] {
      guard let layers = asset["layers"]?.items, let id = LottieLayerIntegers.assetID(asset["id"]) else { continue }
      assets.append((id, layers))
    }
    var contexts: [String: LottieDashStretch] = [:]
    // Uses form no loop (LottieInstances refuses one) and nest at most 64 deep, so each pass
    // settles one more level.
    for _ in 0...(LottieInstances.maximumPrecompositionDepth + 1) {
      var changed = false
      let lists =
        [(root["layers"]?.items ?? [], LottieDashStretch())]
        + assets.compactMap { asset in contexts[asset.id].map { (asset.layers, $0) } }
      for (layers, context) in lists {
        for (layer, chain) in zip(layers, layerChains(layers, context: context)) {
          guard case .string(let ref)? = layer["refId"] else { continue }
          let worse = contexts[ref].map { $0.worst(chain) } ?? chain
          if worse != contexts[ref] {
            contexts[ref] = worse
            changed = true
          }
        }
      }
      if !changed { break }
    }
    return contexts
  }

}
