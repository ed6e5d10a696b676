import FlickExpectations
import FlickMotion
import FlickRaster
import FlickScene
import FlickTemplates
import FlickTestSupport
import Foundation
import Testing

/// Malformed templates must give errors, never crash or hang, and what still decodes must
/// evaluate and draw without crashing: every showcase template is
/// mutated many times over (bytes flipped, dropped, duplicated, spliced, truncated) with a
/// seeded generator, so a failure is reproducible from the seed in its message.
@Suite struct FuzzTests {
  static let templates: [(name: String, text: [UInt8])] = {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Templates")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".json5") }.sorted().compactMap { name in
      (try? Data(contentsOf: folder.appendingPathComponent(name))).map { (name, Array($0)) }
    }
  }()

  /// Pieces that tend to reach deep code paths when spliced in.
  static let tokens: [String] = [
    "{", "}", "[", "]", ":", ",", "\"", "'", "$", "${", "1e308", "-1e308", "NaN", "Infinity", "-0", "0x",
    "null", "true", "[]", "{}", "\"\"", "1e-320", "99999999999999999999", "\\u0000", "\\uD800", "//", "/*",
    "\"$heading\"", "spring(", "decay(velocity: 1e300)", "keyframes", "\"#\"", "\"#FFFFFFFFF\"", "-1", "0",
    "\"$(1e308 * 10)\"", "\"$((((\"", "\"$(max())\"", "\"${1/0}\"", "\"$(-0 % 0.5)\"", "$(",
  ]

  static func mutate(_ bytes: [UInt8], _ g: inout SeededGenerator) -> [UInt8] {
    var b = bytes
    for _ in 0..<Int.random(in: 1...4, using: &g) {
      guard !b.isEmpty else { break }
      let i = Int.random(in: 0..<b.count, using: &g)
      switch Int.random(in: 0..<6, using: &g) {
      case 0: b[i] = UInt8.random(in: 0...255, using: &g)
      case 1: b.removeSubrange(i..<min(b.count, i + Int.random(in: 1...40, using: &g)))
      case 2: b.insert(contentsOf: Array(tokens.randomElement(using: &g)!.utf8), at: i)
      case 3:
        let j = Int.random(in: 0..<b.count, using: &g)
        b.insert(contentsOf: b[j..<min(b.count, j + Int.random(in: 1...80, using: &g))], at: i)
      case 4: b = Array(b[..<i])
      default:
        // Replace a number with an extreme one.
        if let k = b[i...].firstIndex(where: { (48...57).contains($0) }) {
          b.replaceSubrange(
            k...k, with: Array(["1e308", "-1e308", "0", "-0.0001", "123456789"].randomElement(using: &g)!.utf8))
        }
      }
    }
    return b
  }

  @Test func mutatedTemplatesAreErrorsNotCrashes() throws {
    expectGreaterOrEqual(Self.templates.count, 6)
    var decoded = 0
    var refused = 0
    for (index, template) in Self.templates.enumerated() {
      for round in 0..<300 {
        let seed = UInt64(index * 100_000 + round)
        var g = SeededGenerator(seed: seed)
        let text = String(decoding: Self.mutate(template.text, &g), as: UTF8.self)
        do {
          let t = try Template.decode(text, file: template.name)
          // What decodes must also evaluate and draw (small, at a few times): errors allowed,
          // crashes not.
          let scene = t.scene
          for k in 0...2 {
            let tree = scene.renderTree(at: scene.duration * Double(k) / 2)
            _ = try? Renderer(scale: 0.1).render(tree)
          }
          decoded += 1
        } catch {
          let message = error.description
          #expect(message.hasPrefix(template.name + ":") || message.contains(template.name), "seed \(seed): \(message)")
          refused += 1
        }
      }
    }
    expectGreater(decoded, 0)
    expectGreater(refused, 0)
  }
}
