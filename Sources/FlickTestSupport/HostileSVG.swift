/// A structure-aware generator of hostile SVG pictures for the fuzz tests, drawn through a
/// template (`contents: "p.svg"`, or the `svg` shape source): shapes, groups, `<defs>`, `<use>`
/// and styles, and, at random, what an attacker would try: `<use>` chains that multiply or
/// cycle, paths of hundreds of thousands of points, thousands of elements, deep nesting,
/// entity declarations, and embedded image bombs.
///
/// A *security* case (``HostileCase/isSecurity``) refers to the victim picture outside the
/// case's folder (``HostileLottie/victimPNG``, at `victimFolder/victim.png`) every way librsvg
/// might load it: `href` and `xlink:href` as a relative, absolute or `file:` URL, CSS `url()`
/// in an attribute, a `style` or a stylesheet, `@import`, `<?xml-stylesheet?>`, XInclude and
/// an external entity.
package enum HostileSVG {
  /// A new case; `victimFolder` is the absolute folder holding `victim.png` (`../victim` from
  /// the case's folder).
  package static func make(_ g: inout SeededGenerator, victimFolder: String) -> HostileCase {
    SVGBuilder(g: g, victimFolder: victimFolder).build(&g) { $0.make() }
  }
}

private struct SVGBuilder: HostileBuilder {
  var g: SeededGenerator
  let victimFolder: String
  var heat = 0.3
  var theme = "mixed"
  var ids: [String] = []

  mutating func path() -> String {
    guard hot() else { return "M 2 2 L \(int(10...60)) \(int(10...60)) L 5 \(int(10...60)) Z" }
    theme = "long path"
    let n = pick([1000, 60_000, 150_000, 300_000])
    var s = "M 0 0"
    s.reserveCapacity(n * 8)
    for k in 0..<n { s += " L\(k % 64) \((k * 7) % 64)" }
    return s
  }

  mutating func element(depth: Int) -> String {
    let id = "e\(ids.count)"
    ids.append(id)
    switch int(0...6) {
    case 0:
      return "<rect id=\"\(id)\" x=\"2\" y=\"2\" width=\"\(int(4...60))\" height=\"\(int(4...60))\" fill=\"#2C6\"/>"
    case 1: return "<circle id=\"\(id)\" cx=\"32\" cy=\"32\" r=\"\(int(2...30))\" fill=\"#C62\"/>"
    case 2: return "<path id=\"\(id)\" d=\"\(path())\" stroke=\"#222\" fill=\"none\"/>"
    case 3 where depth < (hot() ? 70 : 3):
      let children = (0..<int(1...(hot() ? 12 : 3))).map { _ in element(depth: depth + 1) }.joined()
      return "<g id=\"\(id)\" transform=\"translate(1 1)\">\(children)</g>"
    case 4 where ids.count > 1:
      // A reference to an earlier element, or (hot) to itself or a later one: a cycle.
      theme = "use"
      let target = hot() ? pick([id, "e0", "e\(ids.count + 1)"]) : pick(Array(ids.dropLast()))
      return "<use id=\"\(id)\" \(pick(["href", "xlink:href"]))=\"#\(target)\" x=\"\(int(0...3))\"/>"
    case 5 where hot():
      theme = "image"
      let big = TinyPNG.base64(TinyPNG.header(width: pick([20000, 5000, 70000]), height: pick([20000, 1])))
      let small = TinyPNG.base64(TinyPNG.solid(width: 4, height: 4, rgb: (0x20, 0xC0, 0x40)))
      return
        "<image id=\"\(id)\" width=\"10\" height=\"10\" href=\"data:image/png;base64,\(pick([big, small, "AAAA"]))\"/>"
    case 6 where hot():
      // Huge attribute values and counts, which the check must read in time linear in the file.
      theme = "huge attributes"
      let n = pick([2000, 200_000])
      let numbers = String(repeating: "0.5 ", count: n)
      return pick([
        "<rect id=\"\(id)\" width=\"9\" height=\"9\" "
          + (0..<pick([999, 1001, 60_000])).map { "a\($0)=\"1\"" }.joined(separator: " ") + "/>",
        "<filter id=\"\(id)\"><feComponentTransfer><feFuncR type=\"table\" tableValues=\"\(numbers)\"/>"
          + "</feComponentTransfer><feColorMatrix values=\"\(numbers)\"/></filter>",
        "<rect id=\"\(id)\" width=\"9\" height=\"9\" style=\"" + String(repeating: "fill:url(#e0);", count: n) + "\"/>",
        "<style>" + String(repeating: "rect { stroke: red }", count: n) + "</style>",
      ])
    default:
      return "<ellipse id=\"\(id)\" cx=\"20\" cy=\"20\" rx=\"\(int(1...20))\" ry=\"5\" fill=\"#44A\"/>"
    }
  }

  /// A way to refer to the victim picture (`../victim/victim.png` from the case's folder).
  mutating func victimReference() -> (element: String, prolog: String) {
    let path = victimFolder + "/victim.png"
    let href = pick(["../victim/victim.png", path, "file://" + path, "file:" + path, "./../victim/victim.png"])
    switch int(0...8) {
    case 0: return ("<image x=\"0\" y=\"0\" width=\"64\" height=\"64\" href=\"\(href)\"/>", "")
    case 1:
      return ("<image x=\"0\" y=\"0\" width=\"64\" height=\"64\" xlink:href=\"\(href)\"/>", "")
    case 2: return ("<rect width=\"64\" height=\"64\" fill=\"url(\(href))\"/>", "")
    case 3: return ("<rect width=\"64\" height=\"64\" style=\"fill: url('\(href)')\"/>", "")
    case 4:
      return (
        "<style>@import url(\"\(href)\"); rect { fill: url(\(href)) }</style><rect width=\"64\" height=\"64\"/>", ""
      )
    case 5: return ("<rect width=\"64\" height=\"64\"/>", "<?xml-stylesheet type=\"text/css\" href=\"\(href)\"?>")
    case 6:
      return (
        "<xi:include xmlns:xi=\"http://www.w3.org/2001/XInclude\" href=\"\(href)\" parse=\"text\"/>", ""
      )
    case 7:
      return ("<text>&x;</text>", "<!DOCTYPE svg [<!ENTITY x SYSTEM \"\(href)\">]>")
    default:
      return ("<use href=\"\(href)#v\"/><feImage href=\"\(href)\"/>", "")
    }
  }

  mutating func make() -> HostileCase {
    heat = pick([0, 0, 0.01, 0.05, 0.2, 0.5])
    let isSecurity = chance(0.35)
    if isSecurity { theme = "victim outside" }
    var body = ""
    var prolog = ""
    if chance(0.3) {
      body += "<defs>" + (0..<int(1...3)).map { _ in element(depth: 1) }.joined() + "</defs>"
    }
    for _ in 0..<int(1...(hot() ? 30 : 4)) { body += element(depth: 0) }
    if isSecurity {
      let v = victimReference()
      body = chance(0.5) ? v.element + body : body + v.element
      prolog = v.prolog
    }
    if hot() && chance(0.2) {
      theme = "many elements"
      body += String(repeating: "<rect width=\"1\" height=\"1\"/>", count: pick([5000, 20_000]))
    }
    if hot() && chance(0.2) {
      theme = "use multiplication"
      body += "<g id=\"m0\"><rect width=\"1\" height=\"1\"/></g>"
      for k in 1...6 {
        body += "<g id=\"m\(k)\">" + String(repeating: "<use href=\"#m\(k - 1)\"/>", count: 10) + "</g>"
      }
    }
    if hot() && chance(0.1) {
      theme = "entities"
      prolog += "<!DOCTYPE svg [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">]>"
      body += "<text>&b;</text>"
    }
    let svg =
      "<?xml version=\"1.0\"?>\(prolog)<svg xmlns=\"http://www.w3.org/2000/svg\" "
      + "xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"64\" height=\"64\" viewBox=\"0 0 64 64\">\(body)</svg>"
    let asShape = !isSecurity && chance(0.3)
    let layer =
      asShape
      ? "{ id: \"s\", type: \"shape\", path: { svg: \"p.svg\" }, fillColor: \"#2C6\", position: [32, 32], size: [64, 64] }"
      : "{ id: \"p\", contents: \"p.svg\", position: [32, 32], size: [64, 64] }"
    let template = "{ flick: 1, canvas: { width: 64, height: 64, fps: 10, duration: 0.3 }, layers: [ \(layer) ] }"
    return HostileCase(
      files: ["p.svg": Array(svg.utf8), "t.json5": Array(template.utf8)], source: "t.json5", theme: theme,
      isSecurity: isSecurity)
  }
}
