import Foundation

/// A structure-aware generator of hostile batch manifests for the fuzz tests: it writes manifests
/// from the format's grammar (renders with templates, inline variants, params files, CSV and
/// JSON5 data, sizes, formats, frames, chunks, encoding) and, at random, replaces parts with what
/// an attacker would try: paths out of the folder (`..`, absolute, through links, percent forms,
/// devices), names that are paths or terminal controls, data cells that would become folder
/// names, broken CSV and JSON5, huge counts and extreme numbers.
///
/// The case lives in a folder `m/` (with a folder `m/sub/` and a FIFO `m/fifo` the test makes)
/// beside a folder `victim/` whose files hold ``secret``: the test checks that no output mentions
/// it and nothing outside `m/` changes. Everything comes from
/// the seeded generator, so a failing case is rebuilt from its seed.
///
///     var g = SeededGenerator(seed: 42)
///     let m = HostileManifest.make(&g, victim: "/tmp/case/victim")   // m.text, m.files, m.links
package struct HostileManifest: Sendable {
  /// The word every victim file holds; it must never appear in what Flick prints.
  package static let secret = "VICTIMWORD7319"
  /// The victim folder's files (name → text), to write beside the case's folder.
  package static let victimFiles: [String: String] = [
    "secret.json5": "\(secret): 1\n", "secret.csv": "\(secret),\(secret)\n\(secret),\(secret)\n",
    "params.json5": "{ accent: \(secret) }\n", "t.json5": "\(secret)\n",
  ]

  /// The manifest's JSON5 text (to write as `m/batch.json5`).
  package var text: String
  /// Files to write in `m/` (relative path → bytes).
  package var files: [String: [UInt8]]
  /// Symbolic links to make in `m/` (name → target).
  package var links: [String: String]
  /// What the case is mostly about, for messages.
  package var theme: String

  /// A new case; `victim` is the victim folder's absolute path.
  package static func make(_ g: inout SeededGenerator, victim: String) -> HostileManifest {
    Builder(g: g, victim: victim).build(&g) { $0.manifest() }
  }

  /// A small valid template with a colour, a number and a free-text parameter.
  static let template = """
    { flick: 1, parameters: { accent: { type: "color", default: "#F97316" },
        distance: { type: "number", default: 60, minimum: 0, maximum: 100 }, label: { type: "string", default: "x" } },
      canvas: { width: 64, height: 36, fps: 10, duration: 2, background: "#0F172A" },
      layers: [{ id: "card", size: [12, 12], position: [10, 18], backgroundColor: "${accent}" }],
      timeline: [{ target: "card", property: "positionX", to: "$(10 + distance / 2)", at: 0, duration: 1 }] }
    """

  private struct Builder: HostileBuilder {
    var g: SeededGenerator
    let victim: String
    var files: [String: [UInt8]] = ["t.json5": Array(HostileManifest.template.utf8)]
    var links: [String: String] = [:]
    var theme = "mixed"
    var heat = 0.3

    /// A JSON5 string literal of `s` (control characters escaped as JSON5 reads them).
    static func quoted(_ s: String) -> String {
      var out = "\""
      for u in s.unicodeScalars {
        switch u {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case _ where u.value < 0x20 || u.value == 0x7F: out += String(format: "\\u%04X", u.value)
        default: out.unicodeScalars.append(u)
        }
      }
      return out + "\""
    }

    static let hostileNames = [
      "../../x", "a/b", "..", ".", ".flick", ".hidden", "\u{1B}[31mred", "line\nbreak", "::error file=x::forged",
      "\u{202E}evil", "nul\u{0}x", "é", "", " ", "-rf", "%2e%2e", "CON", String(repeating: "n", count: 300), "~",
      "$(id)",
    ]

    /// A path: mostly a real file of the case, when hot a way out of the folder or something odd.
    mutating func path(_ valid: String, victimFile: String) -> String {
      guard hot() else { return valid }
      theme = "paths"
      switch int(0...15) {
      case 0: return "../victim/\(victimFile)"
      case 1: return victim + "/" + victimFile
      case 2: return "link/\(victimFile)"
      case 3: return "sub/../../victim/\(victimFile)"
      case 4: return "%2e%2e/victim/\(victimFile)"
      case 5: return "file-link"
      case 6: return "dangling"
      case 7: return pick(["/dev/zero", "/dev/stdin", "/proc/self/environ", "/etc/passwd", "/"])
      case 8: return "fifo"
      case 9: return "."
      case 10: return ""
      case 11: return "./" + valid + "/"
      case 12: return String(repeating: "../", count: int(1...40)) + "victim/" + victimFile
      case 13: return "..\\victim\\" + victimFile
      case 14: return pick(Self.hostileNames)
      default: return "loop/x"
      }
    }

    mutating func value(_ name: String) -> String {
      if hot() {
        return pick([
          "NaN", "Infinity", "1e308", "-1", "null", "[]", "{}", "\"\"", Self.quoted(pick(Self.hostileNames)),
        ])
      }
      switch name {
      case "accent": return Self.quoted(String(format: "#%06X", int(0...0xFFFFFF)))
      case "distance": return String(int(0...100))
      default: return Self.quoted(chance(0.5) ? pick(Self.hostileNames) : "v\(int(0...999))")
      }
    }

    mutating func inlineVariant() -> String {
      var members: [String] = []
      for name in ["accent", "distance", "label"] where chance(0.6) { members.append("\(name): \(value(name))") }
      if hot() { members.append("\(Self.quoted(pick(Self.hostileNames))): 1") }
      return "{ " + members.joined(separator: ", ") + " }"
    }

    mutating func csvCell() -> String {
      let cell: String
      switch int(0...5) {
      case 0: cell = pick(Self.hostileNames)
      case 1: cell = String(format: "#%06X", int(0...0xFFFFFF))
      case 2: cell = String(int(0...100))
      case 3: cell = "../victim/secret.json5"
      default: cell = "v\(int(0...999))"
      }
      if cell.contains(where: { ",\"\n\r".contains($0) }) || chance(0.2) {
        return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
      }
      return cell
    }

    mutating func csv() -> String {
      var header = ["label"]
      if chance(0.7) { header.append("accent") }
      if chance(0.5) { header.append("distance") }
      if hot() { header.append(pick(Self.hostileNames)) }
      var lines = [header.joined(separator: ",")]
      for _ in 0..<int(0...(hot() ? 40 : 6)) {
        var cells = header.map { _ in csvCell() }
        if hot() { cells.append(contentsOf: Array(repeating: "x", count: int(1...3))) }
        lines.append(cells.joined(separator: ","))
      }
      var text = lines.joined(separator: chance(0.5) ? "\n" : "\r\n") + "\n"
      if hot() { text += pick(["\"unclosed", String(repeating: ",", count: int(1...400)), "\u{FEFF}", "\u{0}"]) }
      return text
    }

    mutating func jsonData() -> String {
      if hot() {
        return pick([
          "[", "{}", "\"text\"", "[1, 2]", "[{ a: 1 } { b: 2 }]", String(repeating: "[", count: 600), "bare words",
        ])
      }
      return "[" + (0..<int(0...6)).map { _ in inlineVariant() }.joined(separator: ", ") + "]"
    }

    mutating func render(_ index: Int) -> String {
      var parts: [String] = []
      let template = chance(0.15) ? "hello" : "t.json5"
      parts.append("template: \(Self.quoted(path(template, victimFile: "t.json5")))")
      if index > 0 || chance(0.4) {
        parts.append("name: \(Self.quoted(hot() ? pick(Self.hostileNames) : "r\(index)"))")
      }
      let inline = chance(0.5)
      if inline {
        var items: [String] = []
        for i in 0..<int(0...(hot() ? 30 : 3)) {
          let params = (i == 0 && chance(0.3)) || hot()
          items.append(params ? Self.quoted(path("params.json5", victimFile: "params.json5")) : inlineVariant())
        }
        parts.append("variants: [\(items.joined(separator: ", "))]")
      }
      if chance(0.5) {
        let csvFile = chance(0.6)
        let data = path(csvFile ? "data.csv" : "data.json5", victimFile: csvFile ? "secret.csv" : "secret.json5")
        parts.append("data: \(Self.quoted(data))")
        if (csvFile && !inline) || hot() {
          parts.append("variantName: \(Self.quoted(hot() ? pick(["label", "accent", "distance", "nope"]) : "label"))")
        }
      }
      if chance(0.4) {
        let sizes = (0..<int(1...(hot() ? 12 : 3))).map { _ -> String in
          hot()
            ? pick(["0", "-1", "1e308", "\"0x0\"", "\"99999x1\"", "\"64x36x\"", "NaN", "17"])
            : pick(["1", "0.5", "\"64x36\"", "2"])
        }
        parts.append("sizes: [\(sizes.joined(separator: ", "))]")
      }
      parts.append(
        "formats: "
          + (hot() ? pick(["[]", "[\"png\", \"png\"]", "\"exe\"", "[\"mp4\", \"gif\", \"webm\"]", "7"]) : "[\"png\"]"))
      if chance(0.3) {
        parts.append(
          "frames: " + (hot() ? pick(["[5, 1]", "[0, 1e9]", "[-1, 3]", "[0]", "\"all\""]) : "[0, \(int(0...19))]"))
      }
      if chance(0.3) {
        parts.append("chunk: " + (hot() ? pick(["1", "0", "-5", "1e9", "1000001"]) : String(int(2...20))))
      }
      if chance(0.2) { parts.append("fps: " + (hot() ? pick(["0", "241", "1e308", "NaN"]) : String(int(1...60)))) }
      if chance(0.2) {
        parts.append("encoding: { crf: \(hot() ? "99" : "20"), preset: \(hot() ? "\"x\"" : "\"veryfast\"") }")
      }
      if hot() { parts.append("allowOutsideAssets: true") }
      if hot() { parts.append("\(Self.quoted(pick(Self.hostileNames))): 1") }
      return "{ " + parts.joined(separator: ", ") + " }"
    }

    mutating func manifest() -> HostileManifest {
      heat = pick([0.0, 0.02, 0.08, 0.25])
      files["data.csv"] = Array(csv().utf8)
      files["data.json5"] = Array(jsonData().utf8)
      files["params.json5"] = Array(
        "{ \(["accent", "distance", "label"].map { "\($0): \(value($0))" }.joined(separator: ", ")) }".utf8)
      links = [
        "link": "../victim", "file-link": victim + "/secret.json5", "dangling": "/nonexistent/\(int(0...99))",
        "loop": "loop",
      ]
      if hot() { links["out"] = pick(["../victim", victim, "sub"]) }
      var top: [String] = ["flick: " + (hot() ? pick(["2", "\"1\"", "-1", "1e308", "NaN", "null"]) : "1")]
      if chance(0.6) {
        top.append("output: \(Self.quoted(path("out", victimFile: "out")))")
      }
      if chance(0.2) { top.append("chunk: " + (hot() ? pick(["1", "-1", "1e20"]) : "10")) }
      let count = hot() ? pick([0, 1, 4, 40]) : int(1...3)
      top.append("renders: [" + (0..<count).map { render($0) }.joined(separator: ",\n    ") + "]")
      var text = "{\n  " + top.joined(separator: ",\n  ") + ",\n}\n"
      if hot() {
        switch int(0...5) {
        case 0: text = "\u{FEFF}" + text
        case 1: text = String(text.prefix(int(0...text.count)))
        case 2: text = text.replacingOccurrences(of: "renders", with: "rendres")
        case 3: text = String(repeating: "[", count: int(100...2000)) + text
        case 4: text += "\u{1B}[2J"
        default: text = text.replacingOccurrences(of: "flick: 1", with: "flick: 1, flick: 1")
        }
      }
      return HostileManifest(text: text, files: files, links: links, theme: theme)
    }
  }
}
