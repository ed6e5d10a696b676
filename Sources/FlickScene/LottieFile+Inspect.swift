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

  private mutating func note(_ where_: String, _ what: String) {
    let text = "\(where_): \(what)"
    // One line per feature and place: a file with a hundred text layers lists each, capped later.
    if seen.insert(text).inserted { findings.append(text) }
  }

  mutating func inspect(_ root: LottieJSON) {
    if root["ddd"]?.integer == 1 { note("composition", "3D (ddd: 1; rlottie draws 3D layers flat)") }
    if let fonts = root["chars"]?.items, !fonts.isEmpty { note("composition", "glyphs ('chars')") }
    walkLayers(root["layers"]?.items ?? [], at: "layers", depth: 0)
    for (i, asset) in (root["assets"]?.items ?? []).enumerated() where asset.members != nil {
      let id = LottieJSON.shown(asset["id"]?.text ?? "\(i)")
      if let layers = asset["layers"]?.items {
        walkLayers(layers, at: "assets[\(i)] '\(id)'.layers", depth: 1)
      } else if let file = asset["p"]?.text, !file.hasPrefix("data:") {
        note("assets[\(i)] '\(id)'", "an external image file '\(quoted: file)' (embed images as data: URIs)")
      }
    }
  }

  private mutating func walkLayers(_ layers: [LottieJSON], at place: String, depth: Int) {
    guard depth < Self.maximumDepth else { return note(place, "nesting deeper than \(Self.maximumDepth)") }
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
        if ty == "mm" { note(place, "merge paths") }
        if ty == "pb" { note(place, "pucker/bloat") }
        if ty == "tw" { note(place, "twist") }
        if ty == "zz" { note(place, "zig zag") }
        if ty == "op" { note(place, "offset path") }
      }
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

  /// Whether an animatable value (a mask's `x` or `f`, a transform's `sk`) is anything but 0 at
  /// some time: a number `k`, any element of an array `k` (`[30, 30]` feathers a mask as `30`
  /// does), or the start or end value (`s`, `e`) of any keyframe of an animated `k`. A `k`
  /// that is none of these counts as non-zero when the property says it is animated (`a: 1`).
  private static func isNonZero(_ value: LottieJSON?) -> Bool {
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
