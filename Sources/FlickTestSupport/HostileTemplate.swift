import Foundation

/// A structure-aware generator of hostile templates for the fuzz tests: it writes templates
/// from the format's grammar (canvas, parameters, styles, layers of every kind, timeline
/// entries with curves) and, at random, replaces parts with what an attacker would try: deep
/// nesting, huge arrays and strings, extreme and non-finite numbers, hostile Unicode and
/// terminal controls, expression and reference floods, degenerate curves and paths, and odd
/// assets (PNG bombs, truncated and fake images, broken fonts, paths leaving the folder).
///
/// Everything comes from the seeded generator, so a failing case is rebuilt from its seed.
///
///     var g = SeededGenerator(seed: 42)
///     let t = HostileTemplate.make(&g)   // t.text, t.assets
package struct HostileTemplate: Sendable {
  /// The template's JSON5 text.
  package var text: String
  /// Files to write beside the template (name → bytes).
  package var assets: [String: [UInt8]]
  /// What the case is mostly about, for messages.
  package var theme: String

  /// A new case.
  package static func make(_ g: inout SeededGenerator) -> HostileTemplate {
    Builder(g: g).build(&g) { $0.template() }
  }

  private struct Builder: HostileBuilder {
    var g: SeededGenerator
    var assets: [String: [UInt8]] = [:]
    var ids: [String] = []
    var theme = "mixed"
    /// How hostile this case is: 0 mostly valid, 1 often hostile.
    var heat = 0.3

    // MARK: - Scalars

    static let extremeNumbers = [
      "0", "-0", "1", "-1", "0.5", "1e308", "-1e308", "1e-320", "5e-324", "NaN", "Infinity", "-Infinity",
      "9223372036854775807", "9223372036854775808", "-9223372036854775809", "18446744073709551616",
      "4294967296", "2147483648", "65536", "16384", "16385", "1e15", "123456789012345678901234567890",
      "0x7FFFFFFFFFFFFFFF",
      ".5", "5.", "+1", "1e309", "3.14159", "1e-7",
    ]

    mutating func number(_ normal: ClosedRange<Double>) -> String {
      if hot() { return pick(Self.extremeNumbers) }
      let v = Double.random(in: normal, using: &g)
      return String((v * 1000).rounded() / 1000)
    }

    static let hostileText = [
      "\\u001B[31mred\\u001B[0m", "line\\nbreak\\r\\n::error file=x::forged", "\\u202Eevil\\u202C", "\\u0000nul",
      "e\\u0301\\u0301\\u0301\\u0301\\u0301\\u0301\\u0301\\u0301", "👩‍👩‍👧‍👦🏳️‍🌈", "\\uD800", "\\uDFFF\\uD800", "مرحبا بالعالم",
      "\\u200B\\u200B\\u200B", "\\uFEFF\\uFFFE\\uFFFF", "𝕳𝖊𝖑𝖑𝖔", "\\t\\u000B\\u000C", "\\u2028\\u2029", "$$", "$", "${",
      "${}",
      "$(", "$()", "${nope}", "$nope", "\\\\", "'\\\"", "ﷺ", "\\u0085\\u009B",
    ]

    mutating func text() -> String {
      guard hot() else {
        return pick(["Hello", "Title", "A B C", "x", "Ünïcödé ✓", "日本語のテキスト", "word word word word word"])
      }
      switch int(0...9) {
      case 0: return String(repeating: pick(["w", "ab", "é", "字", "\\u0301"]), count: int(100...20_000))
      case 1: return (0..<int(2...400)).map { _ in pick(Self.hostileText) }.joined()
      case 2: return (0..<int(1...300)).map { _ in "word" }.joined(separator: " ")
      case 3:
        return "${" + pick(["n", "n * 2", "((((n))))", "1/0", "n" + String(repeating: "+n", count: int(1...3000))])
          + "}"
      default: return hot() ? pick(Self.hostileText) : pick(["Hello", "Title", "A B C", "x"])
      }
    }

    static let colors = [
      "#FF5A5F", "#000", "#FFFFFF80", "transparent", "#", "#GGGGGG", "#FFFFFFFFF", "red", "", "#12345",
    ]

    mutating func color() -> String { "\"" + (hot() ? pick(Self.colors) : pick(Array(Self.colors.prefix(4)))) + "\"" }

    mutating func point() -> String {
      hot() && chance(0.2)
        ? pick(["[]", "[1]", "[1, 2, 3]", "{ x: 1 }", "'1,2'", "null"])
        : "[\(number(-200...200)), \(number(-200...200))]"
    }

    mutating func size() -> String {
      hot() && chance(0.2)
        ? pick(["[-1, 5]", "[1e308, 1e308]", "{ width: 1 }", "[NaN, 1]"]) : "[\(number(0...200)), \(number(0...200))]"
    }

    // MARK: - Expressions and references

    mutating func expression() -> String {
      guard hot() else { return "\"$(n * 0.\(int(0...9)))\"" }
      switch int(0...6) {
      case 0:
        return "\"$(" + String(repeating: "(", count: int(1...200)) + "n" + String(repeating: ")", count: int(1...200))
          + ")\""
      case 1: return "\"$(" + String(repeating: "-", count: int(1...5000)) + "n)\""
      case 2:
        return "\"$(" + (0..<int(1...2000)).map { _ in "n" }.joined(separator: pick([" + ", " * ", " / ", " % "]))
          + ")\""
      case 3:
        return "\"$("
          + pick(["1/0", "sqrt(-1)", "n % 0", "1e308 * 10", "max()", "clamp(1)", "nope(1)", "pi ** 2", "0x10"]) + ")\""
      case 4:
        return "\"$(" + String(repeating: "min(", count: int(1...300)) + "n"
          + String(repeating: ")", count: int(1...300)) + ")\""
      default: return "\"$(n * \(number(-2...2)) + 0.5)\""
      }
    }

    // MARK: - Curves and paths

    mutating func curve() -> String {
      let normal = [
        "easeOut", "linear", "spring(bounciness: 8, speed: 12)", "spring(stiffness: 170, damping: 12)",
        "decay(velocity: 300)", "cubicBezier(0.2, 0, 0.2, 1)", "keyframes(values: [0, 1, 0], keyTimes: [0, 0.5, 1])",
      ]
      guard hot() else { return "\"" + pick(normal) + "\"" }
      switch int(0...6) {
      case 0: return "\"" + String(repeating: "[", count: int(60...5000)) + "\""
      case 1: return "\"" + String(repeating: "spring(", count: int(60...3000)) + "\""
      case 2:
        return
          "\"spring(stiffness: \(pick(Self.extremeNumbers)), damping: \(pick(Self.extremeNumbers)), mass: \(pick(Self.extremeNumbers)))\""
      case 3:
        return
          "\"decay(velocity: \(pick(Self.extremeNumbers)), deceleration: \(pick(["0.5", "1", "0.999999999", "0", "2"])))\""
      case 4: return "\"cubicBezier(\(pick(Self.extremeNumbers)), 0, \(pick(Self.extremeNumbers)), 1)\""
      case 5:
        let n = int(0...3000)
        return "\"keyframes(values: [\((0..<n).map { _ in "1" }.joined(separator: ","))], keyTimes: [0, 1])\""
      default: return "\"" + pick(normal) + ")))\""
      }
    }

    mutating func svgPath() -> String {
      var s = "M \(number(-50...50)) \(number(-50...50))"
      for _ in 0..<int(1...(hot() ? 3000 : 8)) {
        switch int(0...6) {
        case 0: s += " L \(number(-100...100)) \(number(-100...100))"
        case 1: s += " C 1 2 3 4 \(number(-100...100)) \(number(-100...100))"
        case 2:
          let rx = hot() ? pick(["1e-300", "0", "1e300", "5e-324"]) : "10"
          let ry = hot() ? pick(["1e-300", "1e308"]) : "12"
          s +=
            " A \(rx) \(ry) \(number(0...360)) \(int(0...1)) \(int(0...1)) \(number(-100...100)) \(number(-100...100))"
        case 3: s += " Q 1 1 \(number(-100...100)) 2"
        case 4: s += " Z"
        case 5: s += hot() ? pick([" X 1", " L", " A 1 1 0 2 0 1 1", " 1e999 1"]) : " Z"
        default: s += " h \(number(-10...10)) v \(number(-10...10))"
        }
      }
      return "\"" + s + "\""
    }

    mutating func shapePath() -> String {
      switch int(0...4) {
      case 0: return svgPath()
      case 1:
        let start = hot() ? pick(["1e308", "-1e308", "\"1e308deg\""]) : pick(["0", "\"-90deg\""])
        let end = hot() ? pick(["-1e308", "1e308", "NaN", "\"-1e300deg\""]) : pick(["6.28", "\"270deg\""])
        return "{ arc: \(point()), radius: \(number(0...100)), startAngle: \(start), endAngle: \(end) }"
      case 2: return "{ rect: [0, 0, \(number(0...100)), \(number(0...100))] }"
      case 3: return "{ ellipse: [0, 0, \(number(0...100)), \(number(0...100))] }"
      default: return "{ roundedRect: [0, 0, 50, 50], cornerRadius: \(number(0...100)) }"
      }
    }

    // MARK: - Assets

    /// A valid `width × height` RGBA PNG, its colours varied by `seed`.
    static func validPNG(width: Int, height: Int, seed: UInt8) -> [UInt8] {
      TinyPNG.rgba(width: width, height: height) { x, y in
        (UInt8(truncatingIfNeeded: x * 16) &+ seed, UInt8(truncatingIfNeeded: y * 16), seed, 200)
      }
    }

    /// A PNG header claiming `width × height` with a zero (wrong) CRC, then an IEND unless
    /// `truncated`; never any image data.
    static func png(width: UInt32, height: UInt32, truncated: Bool) -> [UInt8] {
      let ihdr = TinyPNG.be32(13) + Array("IHDR".utf8) + TinyPNG.be32(Int(width)) + TinyPNG.be32(Int(height))
      return TinyPNG.signature + ihdr + [8, 6, 0, 0, 0] + [0, 0, 0, 0] + (truncated ? [] : TinyPNG.chunk("IEND", []))
    }

    mutating func imageAsset() -> String {
      let name = "img\(int(0...99999)).png"
      guard hot() else {
        assets[name] = Self.validPNG(width: int(1...16), height: int(1...16), seed: UInt8(int(0...255)))
        return "\"" + name + "\""
      }
      switch int(0...6) {
      case 0: assets[name] = Self.png(width: 20000, height: 20000, truncated: chance(0.5))
      case 1: assets[name] = Self.png(width: UInt32(int(1...64)), height: UInt32(int(1...64)), truncated: true)
      case 2: assets[name] = (0..<int(0...512)).map { _ in UInt8(int(0...255)) }
      case 3:
        assets[name] = [0xFF, 0xD8, 0xFF, 0xC0, 0, 17, 8, 0xFF, 0xFF, 0xFF, 0xFF] + Array(repeating: 0, count: 20)
      case 4: assets[name] = Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8X".utf8) + Array(repeating: 0xFF, count: 20)
      case 5:
        return "\"" + pick(["../../../../etc/passwd.png", "/etc/hostname.png", "a/../../x.png", "", "nope.png", "."])
          + "\""
      default: assets[name] = Self.png(width: 0, height: 0, truncated: false)
      }
      return "\"" + name + "\""
    }

    mutating func fontAsset() -> String {
      guard hot() else { return "\"" + pick(["Inter", "DejaVu Sans", "sans-serif", "No Such Family"]) + "\"" }
      let name = "font\(int(0...99999)).ttf"
      switch int(0...3) {
      case 0: assets[name] = (0..<int(0...2048)).map { _ in UInt8(int(0...255)) }
      case 1: assets[name] = [0, 1, 0, 0, 0xFF, 0xFF, 0, 0] + Array(repeating: 0xFF, count: 64)
      case 2:
        assets[name] = Array("ttcf".utf8) + [0, 1, 0, 0, 0x7F, 0xFF, 0xFF, 0xFF] + Array(repeating: 0xEE, count: 32)
      default: return "\"" + pick(["../outside.ttf", "/usr/share/fonts/none.ttf", "x.otf"]) + "\""
      }
      return "\"" + name + "\""
    }

    // MARK: - Layers

    var styleCount = 0

    mutating func layer(depth: Int, inMask: Bool = false) -> String {
      let id = hot() && chance(0.1) ? pick(["\"\"", "\"dup\"", "\"\(pick(Self.hostileText))\""]) : "\"l\(ids.count)\""
      ids.append(id)
      var members = ["id: \(id)"]
      let kind = int(0...4)
      members.append("size: \(size())")
      members.append("position: \(point())")
      if chance(0.5) { members.append("opacity: \(chance(0.5) ? expression() : number(0...1))") }
      if chance(0.3) { members.append("backgroundColor: \(color())") }
      if chance(0.2) { members.append("cornerRadius: \(number(0...50))") }
      if chance(0.2) {
        // The largest blurs cost seconds a frame in a debug build: only hot cases use them.
        let radius = hot() && chance(0.3) ? pick(["1000", "999.5", "\"$(n * 1000)\""]) : number(0...40)
        members.append("shadowOpacity: 1, shadowRadius: \(radius), shadowOffset: \(point())")
      }
      if chance(0.2) {
        members.append(
          "transform: { rotation: \(number(-7...7)), scale: \(number(0...3)), perspective: \(number(0...1000)) }")
      }
      if chance(0.1) { members.append("contents: \(imageAsset())") }
      if !inMask, styleCount > 0 || hot(), chance(0.15) { members.append("style: \"s\(int(0...3))\"") }
      switch kind {
      case 1:
        members.append("type: \"shape\", path: \(shapePath()), fillColor: \(color())")
        if chance(0.3) {
          members.append(
            "strokeColor: \(color()), lineWidth: \(number(0...20)), lineDashPattern: [\(number(0...10)), \(number(0...10))]"
          )
        }
        if chance(0.2) { members.append("strokeStart: \(number(0...1)), strokeEnd: \(number(0...1))") }
      case 2:
        members.append("type: \"text\", string: \"\(text())\", fontSize: \(number(1...80))")
        if chance(0.5) { members.append("isWrapped: true") }
        if chance(0.2) { members.append("truncationMode: \"\(pick(["end", "middle", "start", "none"]))\"") }
        if chance(0.2) { members.append("fontFamily: \(fontAsset())") }
        if chance(0.2) { members.append("tracking: \(number(-10...10)), lineSpacing: \(number(-10...10))") }
      case 3:
        let n = hot() ? int(0...3000) : int(2...4)
        members.append("type: \"gradient\", colors: [\((0..<n).map { _ in color() }.joined(separator: ", "))]")
        if chance(0.5) {
          let count = hot() ? int(0...5) : n
          let locations =
            hot()
            ? (0..<count).map { _ in number(0...1) }
            : (0..<count).map { String(Double($0) / Double(max(1, count - 1))) }
          members.append("locations: [\(locations.joined(separator: ", "))]")
        }
      default: break
      }
      let maxDepth = hot() && chance(0.15) ? 80 : 3
      if depth < maxDepth, chance(depth > 3 ? 0.97 : 0.35) {
        let count = depth > 3 ? 1 : int(1...3)
        members.append("sublayers: [\((0..<count).map { _ in layer(depth: depth + 1) }.joined(separator: ", "))]")
      }
      if depth < 2, chance(0.05) { members.append("mask: \(layer(depth: depth + 1, inMask: true))") }
      if hot() && chance(0.05) { members.append(pick(["unknownKey: 1", "zPosition: {}", "isHidden: [", "mask: 5"])) }
      return "{ " + members.joined(separator: ", ") + " }"
    }

    // MARK: - Timeline

    mutating func timelineEntry(depth: Int) -> String {
      let target = ids.isEmpty || (hot() && chance(0.1)) ? "\"nobody\"" : pick(ids)
      switch int(0...5) {
      case 0 where depth < 3:
        return
          "{ at: \(number(0...2)), group: [\((0..<int(1...3)).map { _ in timelineEntry(depth: depth + 1) }.joined(separator: ", "))] }"
      case 1 where depth < 3:
        return
          "{ sequence: [\((0..<int(1...3)).map { _ in timelineEntry(depth: depth + 1) }.joined(separator: ", "))] }"
      case 2:
        return "{ target: \(target), set: { opacity: \(number(0...1)) } }"
      default:
        let property = pick([
          "opacity", "positionX", "position", "rotation", "scaleX", "backgroundColor", "cornerRadius",
        ])
        let value: String
        switch property {
        case "position": value = point()
        case "backgroundColor": value = color()
        case "opacity": value = chance(0.3) ? expression() : number(0...1)
        case "scaleX", "cornerRadius": value = number(0...3)
        default: value = chance(0.3) ? expression() : number(-100...100)
        }
        let curve = curve()
        var entry = "{ target: \(target), animate: { \(property): \(value) }, curve: \(curve)"
        if chance(0.3), !curve.contains("spring") && !curve.contains("decay") || hot() {
          entry += ", duration: \(number(0...3))"
        }
        if depth == 0, chance(0.2) { entry += ", at: \(number(0...3))" }
        if hot() && chance(0.1) { entry += ", repeatCount: \(pick(Self.extremeNumbers))" }
        return entry + " }"
      }
    }

    // MARK: - The document

    mutating func template() -> HostileTemplate {
      heat = pick([0, 0, 0.003, 0.01, 0.03, 0.1, 0.4])
      var members = ["flick: \(hot() && chance(0.1) ? pick(Self.extremeNumbers) : "1")"]
      // Parameters, some huge and referenced many times.
      var parameters = ["n: { type: \"number\", default: \(number(0...1)) }"]
      if chance(0.3) {
        let big = String(repeating: "x", count: hot() ? int(1000...100_000) : 10)
        parameters.append("big: { type: \"string\", default: \"\(big)\" }")
        theme = "expansion"
      }
      if chance(0.2) { parameters.append("c: { type: \"color\", default: \(color()) }") }
      if hot() && chance(0.3) { parameters.append("f: { type: \"font\", default: \(fontAsset()) }") }
      members.append("parameters: { \(parameters.joined(separator: ", ")) }")
      let width = hot() && chance(0.2) ? pick(Self.extremeNumbers) : String(int(1...96))
      let height = hot() && chance(0.2) ? pick(Self.extremeNumbers) : String(int(1...96))
      let duration = hot() && chance(0.2) ? pick(Self.extremeNumbers + ["\"auto\"", "\"forever\""]) : number(0.1...0.5)
      members.append(
        "canvas: { width: \(width), height: \(height), fps: \(hot() && chance(0.1) ? pick(Self.extremeNumbers) : String(int(1...30))), duration: \(duration) }"
      )
      if chance(0.3) {
        let keyCount = hot() ? int(1...20_000) : int(1...4)
        let props = (0..<keyCount).map { "k\($0): 1" }.joined(separator: ", ")
        members.append(
          "styles: { s0: { opacity: 0.5 }, s1: { cornerRadius: 4 }, s2: { \(hot() ? props : "backgroundColor: \"#F00\"") }, s3: { size: [10, 10] } }"
        )
        styleCount = 4
      }
      if hot() && chance(0.3) { members.append("fonts: [\(fontAsset())]") }
      var layers: [String] = []
      for _ in 0..<int(0...(hot() ? 40 : 4)) { layers.append(layer(depth: 0)) }
      if chance(0.2), parameters.count > 1, parameters[1].hasPrefix("big") {
        // A reference flood ("billion laughs").
        let refs = Array(repeating: "\"$big\"", count: int(10...40_000)).joined(separator: ",")
        layers.append("{ id: \"flood\", type: \"gradient\", colors: [\(refs)] }")
        layers.append(
          "{ id: \"flood2\", type: \"text\", string: \"\(String(repeating: "${big}", count: int(10...5000)))\" }")
      }
      members.append("layers: [\(layers.joined(separator: ", "))]")
      if chance(0.8), !ids.isEmpty || hot() {
        let entries = (0..<int(0...(hot() ? 30 : 4))).map { _ in timelineEntry(depth: 0) }
        members.append("timeline: [\(entries.joined(separator: ", "))]")
      }
      if hot() && chance(0.05) { members.append("deep: " + String(repeating: "[", count: int(100...100_000))) }
      var text = "{\n  " + members.joined(separator: ",\n  ") + "\n}\n"
      if hot() && chance(0.05) {
        // A byte-level slip on top.
        var bytes = Array(text.utf8)
        let i = int(0...bytes.count - 1)
        bytes[i] = UInt8(int(0...255))
        text = String(decoding: bytes, as: UTF8.self)
      }
      return HostileTemplate(text: text, assets: assets, theme: theme)
    }
  }
}
