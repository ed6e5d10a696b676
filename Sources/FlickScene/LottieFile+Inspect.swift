import FlickMotion
import Foundation

extension LottieFile {
  /// Reads what Flick shows and checks from `root`, the checked and rewritten tree that is
  /// serialised for rlottie (so Flick and rlottie read the same document), with its `header`
  /// checked before the parse. It walks that tree itself: a second parse (JSONSerialization's
  /// objects, several hundred bytes a value) was most of a large file's memory.
  static func inspect(_ root: LottieJSON, path: String, header: Header) throws(LottieFileError) -> LottieFile {
    // Checked by checkTopLevel before the parse; the canvas is whole points (LottieRlottieCopy).
    let (w, h) = (header.width.rounded(.up), header.height.rounded(.up))
    let (fr, ip, op) = (header.frameRate, header.inPoint, header.outPoint)
    guard let layers = root["layers"]?.items else {
      throw LottieFileError(path: path, message: "'layers' must be an array")
    }
    let kinds: [Int: String] = [
      0: "precomp", 1: "solid", 2: "image", 3: "null", 4: "shape", 5: "text", 6: "audio", 13: "camera",
    ]
    let summaries = layers.map { layer in
      let type = layer["ty"]?.integer ?? -1
      return LayerSummary(name: layer["nm"]?.text ?? "", kind: kinds[type] ?? "type \(type)")
    }
    var markers: [Marker] = []
    for m in root["markers"]?.items ?? [] where m.members != nil {
      let t = m["tm"]?.numberValue ?? 0
      markers.append(Marker(name: m["cm"]?.text ?? "", frame: t - ip, duration: m["dr"]?.numberValue ?? 0))
    }
    let precomps = (root["assets"]?.items ?? []).filter { $0["layers"]?.items != nil }.count
    var inspector = LottieFeatureInspector()
    inspector.inspect(root)
    let version: String
    switch root["v"] {
    case .string(let s)?: version = s
    case .number(let n)?: version = n
    default: version = ""
    }
    return LottieFile(
      path: path, size: Size(width: w, height: h), frameRate: fr, inPoint: ip, outPoint: op,
      version: version, name: root["nm"]?.text ?? "", layers: summaries, markers: markers,
      precompositionCount: precomps, unsupportedFeatures: inspector.findings, embeddedImagePixels: 0, drawnItems: 0)
  }
}

extension LottieJSON {
  /// A number or a boolean as a number (`true` is 1), as the inspector reads flags and values.
  var numberValue: Double? {
    switch self {
    case .number: return double
    case .bool(let b): return b ? 1 : 0
    default: return nil
    }
  }

  /// ``numberValue`` truncated to a whole number (nil when not finite or beyond ±10¹⁵).
  var integer: Int? {
    guard let v = numberValue, v.isFinite, abs(v) < 1e15 else { return nil }
    return Int(v)
  }
}

/// Walks the Lottie JSON for what rlottie 0.1 does not draw.
struct LottieFeatureInspector {
  private(set) var findings: [String] = []
  private var seen: Set<String> = []
  private static let maximumDepth = 512

  mutating func note(_ where_: String, _ what: String) {
    let text = "\(where_): \(what)"
    // One line per feature and place: a file with a hundred text layers lists each, capped later.
    if seen.insert(text).inserted { findings.append(text) }
  }

  mutating func inspect(_ root: LottieJSON) {
    if root["ddd"]?.integer == 1 { note("composition", "3D (ddd: 1; rlottie draws 3D layers flat)") }
    if let fonts = root["chars"]?.items, !fonts.isEmpty { note("composition", "glyphs ('chars')") }
    let contexts = LottieDashStretch.precompositionContexts(root)
    walkLayers(root["layers"]?.items ?? [], at: "layers", above: LottieDashStretch(), depth: 0)
    for (i, asset) in (root["assets"]?.items ?? []).enumerated() where asset.members != nil {
      let id = LottieJSON.shown(asset["id"]?.text ?? "\(i)")
      if let layers = asset["layers"]?.items {
        let above = LottieLayerIntegers.assetID(asset["id"]).flatMap { contexts[$0] } ?? LottieDashStretch()
        walkLayers(layers, at: "assets[\(i)] '\(id)'.layers", above: above, depth: 1)
      } else if let file = asset["p"]?.text, !file.hasPrefix("data:") {
        note("assets[\(i)] '\(id)'", "an external image file '\(quoted: file)' (embed images as data: URIs)")
      }
    }
  }

  /// `above`: the transforms over the list (a precomposition's users', at their worst).
  private mutating func walkLayers(_ layers: [LottieJSON], at place: String, above: LottieDashStretch, depth: Int) {
    guard depth < Self.maximumDepth else { return note(place, "nesting deeper than \(Self.maximumDepth)") }
    let chains = LottieDashStretch.layerChains(layers, context: above)
    for (i, layer) in layers.enumerated() where layer.members != nil {
      let name = layer["nm"]?.text.map { LottieJSON.shown($0) }
      let here = "\(place)[\(i)]" + (name.map { " '\($0)'" } ?? "")
      let type = layer["ty"]?.integer ?? -1
      if type == 5 { note(here, "a text layer") }
      if type == 13 { note(here, "a camera layer") }
      if layer["ddd"]?.integer == 1 { note(here, "a 3D layer (ddd: 1; rlottie draws it flat)") }
      if let effects = layer["ef"]?.items, !effects.isEmpty { note(here, "layer effects ('ef')") }
      if let styles = layer["sy"]?.items, !styles.isEmpty { note(here, "layer styles ('sy')") }
      if let tt = layer["tt"]?.integer, tt != 0, type != 1 {
        // Debian's rlottie 0.1 draws a matted shape layer as nothing (a matted solid works).
        note(here, "a track matte on a non-solid layer (tt: \(tt); rlottie 0.1 draws it empty)")
      }
      if let bm = layer["bm"]?.integer, bm != 0 {
        note(here, "blend mode \(bm) (only normal is drawn)")
      }
      for (j, mask) in (layer["masksProperties"]?.items ?? []).enumerated() where mask.members != nil {
        let mode = mask["mode"]?.text ?? "a"
        if !["a", "s", "i", "n"].contains(mode) {
          let shown = LottieJSON.shown(mode)
          note("\(here).masksProperties[\(j)]", "mask mode '\(shown)' (add, subtract, intersect and none are drawn)")
        }
        if Self.isNonZero(mask["x"]) { note("\(here).masksProperties[\(j)]", "mask expansion") }
        if Self.isNonZero(mask["f"]) { note("\(here).masksProperties[\(j)]", "mask feather") }
      }
      noteLayerFidelity(layers, index: i, at: here)
      if let shapes = layer["shapes"]?.items { noteUnboundedDashes(shapes, at: here, above: chains[i]) }
      walkValue(layer, at: here, depth: depth + 1)
    }
  }

  /// Expressions and merge paths anywhere below a layer.
  private mutating func walkValue(_ value: LottieJSON, at place: String, depth: Int) {
    guard depth < Self.maximumDepth else { return note(place, "nesting deeper than \(Self.maximumDepth)") }
    switch value {
    case .object(let members):
      if value["k"] != nil, let x = value["x"]?.text, !x.isEmpty { note(place, "expressions") }
      // Transforms (a layer's 'ks', a group's 'tr'): rlottie 0.1 ignores skew.
      if Self.isNonZero(value["sk"]) { note(place, "skew (rlottie 0.1 draws it unskewed)") }
      if let ty = value["ty"]?.text {
        noteUnbounded(value, type: ty, at: place)
        noteItemFidelity(value, type: ty, at: place)
      }
      if value["i"]?.members != nil || value["o"]?.members != nil { noteEasing(value, at: place) }
      // In key order, as messages always listed them.
      for member in members.sorted(by: { $0.key < $1.key })
      where member.key != "layers" && member.key != "masksProperties" && member.value.isContainer {
        walkValue(member.value, at: place, depth: depth + 1)
      }
    case .array(let items):
      for child in items where child.isContainer { walkValue(child, at: place, depth: depth + 1) }
    default: break
    }
  }

  /// Geometry rlottie 0.1 does not finish drawing (it hung for good on a 567-byte file): a
  /// shape (path, rectangle, ellipse, star) with a number beyond ±``farthest`` points anywhere
  /// in it, and a repeater whose copies grow past ``mostGrowth`` times (its per-copy scale to the
  /// power of its offset plus its copies less one, ``repeaterGrowth(_:)``: 900 % over 8 copies is
  /// 9⁷, 150 % from an offset of 50 is 1.5⁵⁰). Each is refused as a feature: no drawing of a
  /// preview needs it.
  private mutating func noteUnbounded(_ item: LottieJSON, type: String, at place: String) {
    let properties = item.members?.compactMap { $0.value["k"] != nil ? Self.largestValue($0.value) : nil } ?? []
    if ["sh", "rc", "el", "sr"].contains(type), let far = properties.max(), far > Self.farthest {
      note(
        place,
        "a shape with a coordinate of \(Self.shownNumber(far)) points (beyond ±1e6, which rlottie 0.1 does not finish drawing)"
      )
    }
    if type == "rp" {
      let (growth, scale) = Self.repeaterGrowth(item)
      if growth > Self.mostGrowth {
        let copies = Self.largestValue(item["c"]) ?? 0
        let (low, high) = Self.range(item["o"]) ?? (0, 0)
        let offset =
          low == 0 && high == 0
          ? "" : ", offset \(Self.shownNumber(low))" + (low == high ? "" : " to \(Self.shownNumber(high))")
        note(
          place,
          "a repeater whose copies grow \(Self.shownNumber(growth)) times (\(Self.shownNumber(scale * 100)) % a copy, "
            + "\(Self.shownNumber(copies)) copies\(quoted: offset); rlottie 0.1 does not finish drawing it)")
      }
    }
  }

  /// How much larger than the shapes it repeats a repeater draws a copy, and the per-copy scale
  /// that does it. Copy `i` (`0 ..< c`) is drawn at the repeater's transform applied `o + i`
  /// times, so its scale `s` to the power `o + i`: the powers run from the lowest offset to the
  /// highest plus the copies less one, at any keyframe (easing overshoot included). A scale above
  /// 100 % grows the copies of a positive power, one below 100 % those of a negative power (each
  /// axis on its own), and 0 % to a negative power is unbounded.
  static func repeaterGrowth(_ item: LottieJSON) -> (growth: Double, scale: Double) {
    let copies = (largestValue(item["c"]) ?? 0).rounded(.up)
    guard copies >= 1 else { return (1, 1) }
    let (low, high) = range(item["o"]) ?? (0, 0)
    let (least, most) = range(item["tr"]?["s"]) ?? (100, 100)
    let largest = max(abs(least), abs(most)) / 100
    let smallest = least <= 0 && most >= 0 ? 0 : min(abs(least), abs(most)) / 100
    var worst = (growth: 1.0, scale: 1.0)
    for scale in [largest, smallest] {
      for power in [low, high + copies - 1] {
        let growth = pow(scale, min(max(power, -10_000), 10_000))
        if growth.isNaN || growth > worst.growth { worst = (growth.isNaN ? .infinity : growth, scale) }
      }
    }
    return worst
  }

  /// The farthest coordinate a preview's shape may have, in points.
  static let farthest = 1e6
  /// The most a repeater's copy may be scaled against the shapes it repeats.
  static let mostGrowth = 1e4

  /// The largest magnitude of an animatable property's values: its `k` when static (a number,
  /// an array, a path's vertices and tangents), else every keyframe's `s` and `e` (not their
  /// times or easing handles); nil when it holds none.
  static func largestValue(_ property: LottieJSON?) -> Double? {
    guard let k = property?["k"] else { return nil }
    if let frames = k.items, frames.contains(where: { $0.members != nil && ($0["t"] != nil || $0["s"] != nil) }) {
      return frames.compactMap { frame in [frame["s"], frame["e"]].compactMap { largest($0) }.max() }.max()
    }
    return largest(k)
  }

  /// The largest magnitude of any number in `value` (nested arrays and objects included), nil
  /// when it holds none.
  static func largest(_ value: LottieJSON?, depth: Int = 0) -> Double? {
    guard let value, depth < 64 else { return nil }
    if let n = value.numberValue { return abs(n) }
    let children = value.items ?? value.members?.map(\.value) ?? []
    return children.compactMap { largest($0, depth: depth + 1) }.max()
  }

  static func shownNumber(_ v: Double) -> String {
    v.isFinite && v < 1e6 && v == v.rounded() ? String(Int(v)) : String(format: "%.3g", v)
  }

  /// Whether an animatable value (a mask's `x` or `f`, a transform's `sk`) is anything but 0 at
  /// some time: a number `k`, any element of an array `k` (`[30, 30]` feathers a mask as `30`
  /// does), or the start or end value (`s`, `e`) of any keyframe of an animated `k`. A `k`
  /// that is none of these counts as non-zero when the property says it is animated (`a: 1`).
  static func isNonZero(_ value: LottieJSON?) -> Bool {
    guard let property = value, property.members != nil else { return false }
    func nonZero(_ v: LottieJSON?) -> Bool? {
      if let n = v?.numberValue { return n != 0 }
      guard let items = v?.items else { return nil }
      return items.contains { item in
        if let n = item.numberValue { return n != 0 }
        guard item.members != nil else { return false }
        return nonZero(item["s"]) == true || nonZero(item["e"]) == true
      }
    }
    return nonZero(property["k"]) ?? (property["a"]?.integer == 1)
  }
}

extension LottieJSON {
  fileprivate var isContainer: Bool {
    switch self {
    case .object, .array: return true
    default: return false
    }
  }
}
