/// A structure-aware generator of hostile Lottie files for the fuzz tests: bodymovin JSON with
/// shape, precomposition and image layers, groups and repeaters, written as text so it can also
/// hold what a strict parser refuses (duplicate keys, NUL in keys, trailing junk), and, at
/// random, what an attacker would try: repeaters of millions of copies (keyframed too), nested
/// repeaters and precompositions, precomposition cycles, huge canvases, image bombs, deep
/// nesting, extreme numbers, wrong types.
///
/// A *security* case (``HostileCase/isSecurity``) refers to a victim picture outside the
/// case's folder (``victimFolder``) every way rlottie could load it: an absolute or climbing
/// `u`, an absolute `p`, a symlink named `data:…` in the folder, a duplicate `assets` or `u`
/// key, a key with a NUL, `e: 0` with a `data:` name. The victim has a colour nothing else
/// uses (``victimRGB``), so a test checks that no pixel of the output has it.
///
/// Everything comes from the seeded generator, so a failing case is rebuilt from its seed.
package enum HostileLottie {
  /// The victim picture's colour.
  package static let victimRGB: (UInt8, UInt8, UInt8) = (0x13, 0x57, 0x9B)
  /// The victim picture, a 64 × 64 PNG of ``victimRGB``.
  package static let victimPNG = TinyPNG.solid(width: 64, height: 64, rgb: victimRGB)

  /// A new case. `victimFolder` is the absolute folder holding `victim.png`, outside the case's
  /// folder, which is `../victim` from it.
  package static func make(_ g: inout SeededGenerator, victimFolder: String) -> HostileCase {
    LottieBuilder(g: g, victimFolder: victimFolder).build(&g) { $0.make() }
  }
}

/// One generated case: files to write into a fresh folder, symlinks to make there, and the
/// file to hand to `flick`.
package struct HostileCase: Sendable {
  /// Files to write (name → bytes).
  package var files: [String: [UInt8]] = [:]
  /// Symbolic links to make (name → target).
  package var links: [String: String] = [:]
  /// The file given to `flick` (a Lottie file or a template).
  package var source: String
  /// What the case is mostly about, for messages.
  package var theme: String
  /// Whether the case refers to the victim picture outside its folder.
  package var isSecurity: Bool
}

private struct LottieBuilder: HostileBuilder {
  var g: SeededGenerator
  let victimFolder: String
  var heat = 0.3
  var theme = "mixed"
  var isSecurity = false
  var links: [String: String] = [:]
  var assetIDs: [String] = []

  static let extremeNumbers = [
    "0", "-0", "1", "-1", "1e308", "-1e308", "1e-320", "1e400", "9223372036854775808", "16384", "16385", "1e7", "-1e7",
    "123456789012345678901234567890", "0.5", "65536", "4294967296",
  ]

  mutating func number(_ normal: ClosedRange<Double>) -> String {
    if hot() { return pick(Self.extremeNumbers) }
    return String((Double.random(in: normal, using: &g) * 100).rounded() / 100)
  }

  static func value(_ v: String) -> String { "{\"a\":0,\"k\":\(v)}" }

  mutating func transform() -> String {
    "{\"o\":\(Self.value("100")),\"r\":\(Self.value(number(-90...90))),\"p\":\(Self.value("[32,32,0]")),"
      + "\"a\":\(Self.value("[0,0,0]")),\"s\":\(Self.value("[100,100,100]"))}"
  }

  mutating func copies() -> String {
    guard hot() else { return Self.value(String(int(1...4))) }
    switch int(0...3) {
    case 0: return Self.value(pick(["1e7", "100", "10001", "1e400", "-5", "1e308"]))
    case 1: return "{\"a\":1,\"k\":[{\"t\":0,\"s\":[3]},{\"t\":5,\"s\":[\(pick(["1e7", "50000", "20"]))]}]}"
    case 2: return "{\"a\":0,\"k\":[\(pick(["1e6", "2", "\"x\""]))]}"
    default: return pick(["7", "\"1e7\"", "null", "{}"])
    }
  }

  mutating func shapeItems(depth: Int) -> String {
    var items: [String] = []
    for _ in 0..<int(1...(hot() ? 6 : 3)) {
      switch int(0...5) {
      case 0:
        items.append(
          "{\"ty\":\"rc\",\"d\":1,\"s\":\(Self.value("[\(number(1...60)),\(number(1...60))]")),\"p\":\(Self.value("[0,0]")),\"r\":\(Self.value("0"))}"
        )
      case 1: items.append("{\"ty\":\"el\",\"d\":1,\"s\":\(Self.value("[20,20]")),\"p\":\(Self.value("[0,0]"))}")
      case 2 where depth < (hot() ? 8 : 2):
        theme = depth > 2 ? "nested groups" : theme
        items.append("{\"ty\":\"gr\",\"it\":[\(shapeItems(depth: depth + 1))]}")
      case 3:
        theme = "repeater"
        items.append(
          "{\"ty\":\"rp\",\"c\":\(copies()),\"o\":\(Self.value("0")),\"tr\":{\"ty\":\"tr\",\"p\":\(Self.value("[4,0]")),\"a\":\(Self.value("[0,0]")),\"s\":\(Self.value("[100,100]")),\"r\":\(Self.value("5")),\"so\":\(Self.value("100")),\"eo\":\(Self.value("100"))}}"
        )
      default: items.append("{\"ty\":\"fl\",\"c\":\(Self.value("[0.2,0.8,0.3,1]")),\"o\":\(Self.value("100"))}")
      }
    }
    return items.joined(separator: ",")
  }

  mutating func layer(index: Int) -> String {
    let common = "\"ddd\":0,\"ind\":\(index),\"ks\":\(transform()),\"ip\":0,\"op\":\(number(1...30)),\"st\":0,\"bm\":0"
    switch int(0...3) {
    case 0 where !assetIDs.isEmpty:
      return "{\"ty\":0,\"nm\":\"pre\",\"refId\":\"\(pick(assetIDs))\",\"w\":64,\"h\":64,\(common)}"
    case 1 where !assetIDs.isEmpty:
      return "{\"ty\":2,\"nm\":\"img\",\"refId\":\"\(pick(assetIDs))\",\(common)}"
    case 2 where hot():
      return
        "{\"ty\":\(pick(["5", "13", "\"4\"", "99"])),\"nm\":\"\(pick(["\\u001b[31m", "::error::x", "a\\nb", "t"]))\",\(common)}"
    default:
      return "{\"ty\":4,\"nm\":\"shape\",\(common),\"shapes\":[\(shapeItems(depth: 0))]}"
    }
  }

  /// An image asset: embedded green (valid), or hostile, or (security) the victim.
  mutating func imageAsset(id: String) -> String {
    let green = TinyPNG.base64(TinyPNG.solid(width: 8, height: 8, rgb: (0x20, 0xC0, 0x40)))
    if isSecurity {
      let climb = String(repeating: "/..", count: 12)
      switch int(0...9) {
      case 0: return "{\"id\":\"\(id)\",\"w\":64,\"h\":64,\"u\":\"\(victimFolder)/\",\"p\":\"victim.png\",\"e\":0}"
      case 1: return "{\"id\":\"\(id)\",\"w\":64,\"h\":64,\"u\":\"\",\"p\":\"\(victimFolder)/victim.png\",\"e\":0}"
      case 2:
        return "{\"id\":\"\(id)\",\"w\":64,\"h\":64,\"u\":\"\(climb)\(victimFolder)/\",\"p\":\"victim.png\",\"e\":0}"
      case 3: return "{\"id\":\"\(id)\",\"w\":64,\"h\":64,\"u\":\"../victim/\",\"p\":\"victim.png\"}"
      case 4:
        // A symlink named like an embedded image, in the case's own folder.
        links["data:v.png"] = victimFolder + "/victim.png"
        return "{\"id\":\"\(id)\",\"w\":64,\"h\":64,\"u\":\"\",\"p\":\"data:v.png\",\"e\":\(pick(["0", "1"]))}"
      case 5:
        links["data:x.png"] = victimFolder + "/victim.png"
        return "{\"id\":\"\(id)\",\"w\":64,\"h\":64,\"u\":\"\(climb)\(victimFolder)/\",\"p\":\"data:x.png\",\"e\":0}"
      case 6:
        // The checker might see the first key and rlottie the last.
        return
          "{\"id\":\"\(id)\",\"w\":64,\"h\":64,\"u\":\"\",\"u\":\"\(victimFolder)/\",\"p\":\"victim.png\",\"e\":1,\"e\":0}"
      case 7:
        return
          "{\"id\":\"\(id)\",\"w\":64,\"h\":64,\"p\":\"data:image/png;base64,\(green)\",\"p\\u0000\":\"\(victimFolder)/victim.png\",\"e\":1,\"e\\u0000x\":0}"
      case 8:
        return "{\"id\":\"\(id)\",\"w\":64,\"h\":64,\"u\":\"file://\(victimFolder)/\",\"p\":\"victim.png\",\"e\":0}"
      default:
        return "{\"id\":\"\(id)\",\"w\":64,\"h\":64,\"e\":0,\"u\":\"\(victimFolder)\",\"p\":\"/victim.png\"}"
      }
    }
    guard hot() else {
      return "{\"id\":\"\(id)\",\"w\":8,\"h\":8,\"u\":\"\",\"p\":\"data:image/png;base64,\(green)\",\"e\":1}"
    }
    theme = "image asset"
    let p: String
    switch int(0...6) {
    case 0: p = "data:image/png;base64," + TinyPNG.base64(TinyPNG.header(width: 20000, height: 20000))
    case 1: p = "data:image/png;base64," + TinyPNG.base64(TinyPNG.header(width: 70000, height: 1))
    case 2: p = "data:image/gif;base64,R0lGODlhAQABAAAAACw="
    case 3: p = "data:image/png;base64,\\n" + green
    case 4: p = "data:image/png," + green
    case 5: p = "data:image/png;base64,!!!!" + green
    default: p = "missing.png"
    }
    return "{\"id\":\"\(id)\",\"w\":8,\"h\":8,\"u\":\"\",\"p\":\"\(p)\",\"e\":\(pick(["0", "1"]))}"
  }

  mutating func precompAsset(id: String, depth: Int) -> String {
    var layers: [String] = []
    for i in 0..<int(1...3) { layers.append(layer(index: i + 1)) }
    return "{\"id\":\"\(id)\",\"layers\":[\(layers.joined(separator: ","))]}"
  }

  mutating func make() -> HostileCase {
    heat = pick([0, 0, 0.01, 0.05, 0.2, 0.5])
    isSecurity = chance(0.3)
    if isSecurity { theme = "victim image outside" }
    let w = hot() && chance(0.3) ? pick(["20000", "16384", "0", "1e9", "\"64\""]) : "64"
    let h = hot() && chance(0.3) ? pick(["20000", "16384", "-1", "64"]) : "64"
    var assets: [String] = []
    // Precompositions first (their layers may use the ones before them, or themselves).
    for k in 0..<int(0...(hot() ? 4 : 2)) {
      let id = "comp_\(k)"
      if hot() && chance(0.3) {
        theme = "precomposition cycle"
        assetIDs.append(id)
      }
      assets.append(precompAsset(id: id, depth: k))
      assetIDs.append(id)
    }
    let imageID = "image_0"
    if isSecurity || chance(0.5) {
      assets.append(imageAsset(id: imageID))
      assetIDs = assetIDs.filter { $0 != imageID } + [imageID]
    }
    var layers: [String] = []
    if isSecurity {
      layers.append(
        "{\"ty\":2,\"nm\":\"img\",\"refId\":\"\(imageID)\",\"ddd\":0,\"ind\":1,\"ks\":\(transform()),\"ip\":0,\"op\":10,\"st\":0,\"bm\":0}"
      )
    }
    for i in 0..<int(1...(hot() ? 8 : 3)) { layers.append(layer(index: i + 2)) }
    var top =
      "\"v\":\"5.7.0\",\"fr\":\(hot() && chance(0.2) ? pick(["0", "1e9", "-1"]) : "10"),\"ip\":0,\"op\":10,"
      + "\"w\":\(w),\"h\":\(h),\"nm\":\"fuzz\",\"ddd\":0,\"assets\":[\(assets.joined(separator: ","))],"
      + "\"layers\":[\(layers.joined(separator: ","))]"
    if isSecurity && chance(0.3) {
      // A second `assets`: the checker of old saw one, rlottie the other.
      let victim = "{\"id\":\"\(imageID)\",\"w\":64,\"h\":64,\"u\":\"\(victimFolder)/\",\"p\":\"victim.png\",\"e\":0}"
      top = chance(0.5) ? top + ",\"assets\":[\(victim)]" : "\"assets\":[\(victim)]," + top
    }
    if hot() && chance(0.2) { top += ",\"x\":" + String(repeating: "[", count: int(10...2000)) }
    var files: [String: [UInt8]] = ["a.json": Array(("{" + top + "}").utf8)]
    var source = "a.json"
    if chance(0.3) {
      // Through a template's lottie layer.
      files["t.json5"] = Array(
        """
        { flick: 1, canvas: { width: 64, height: 64, fps: 10, duration: 0.3 },
          layers: [ { id: "l", type: "lottie", source: "a.json", position: [32, 32], speed: 1 } ] }
        """.utf8)
      source = "t.json5"
    }
    return HostileCase(files: files, links: links, source: source, theme: theme, isSecurity: isSecurity)
  }
}
