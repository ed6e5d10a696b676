import FlickExpectations
import FlickTemplates
import FlickVideo
import Foundation
import Testing

@testable import FlickBatch

/// Manifests: every broken fixture fails with its file:line:col + path message (the fixture's
/// `// expect:` header), the JSON Schema agrees with the decoder, and every way of giving
/// parameter sets works.
@Suite struct ManifestTests {
  static let broken = BatchFixtures.fixtures.appendingPathComponent("broken")

  static var brokenFixtures: [URL] {
    ((try? FileManager.default.contentsOfDirectory(atPath: broken.path)) ?? []).filter { $0.hasSuffix(".json5") }
      .sorted()
      .map { broken.appendingPathComponent($0) }
  }

  @Test(arguments: brokenFixtures.map(\.lastPathComponent))
  func brokenManifestIsExplained(_ name: String) throws {
    let url = Self.broken.appendingPathComponent(name)
    let text = try String(contentsOf: url, encoding: .utf8)
    let header = try #require(text.split(separator: "\n").first { $0.hasPrefix("// expect: ") })
    let expected = header.dropFirst("// expect: ".count).replacingOccurrences(
      of: "{FIXTURES}", with: BatchFixtures.fixtures.path)
    do {
      _ = try BatchPlan(manifest: try Manifest.load(path: url.path), flickVersion: "test")
      Issue.record("\(name) was accepted")
    } catch {
      let prefix = expected.hasPrefix(":") || expected.hasPrefix(" ") ? url.path + expected : expected
      #expect(error.description.hasPrefix(prefix), "got: \(error.description)")
    }
  }

  @Test func thereAreBrokenFixtures() {
    expectGreaterOrEqual(Self.brokenFixtures.count, 12)
  }

  /// The schema lists exactly the keys and enumerations the decoder accepts.
  @Test func schemaAgreesWithTheDecoder() throws {
    let url = BatchFixtures.root.appendingPathComponent("Templates/plan.schema.json")
    let schema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    func keys(_ object: [String: Any]?) -> Set<String> {
      Set(((object?["properties"] as? [String: Any]) ?? [:]).keys)
    }
    let defs = try #require(schema["$defs"] as? [String: Any])
    expectEqual(keys(schema), Set(Manifest.topKeys))
    expectEqual(keys(defs["render"] as? [String: Any]), Set(Manifest.renderKeys))
    let encoding = defs["encoding"] as? [String: Any]
    expectEqual(keys(encoding), Set(Manifest.encodingKeys))
    expectEqual((defs["format"] as? [String: Any])?["enum"] as? [String], Manifest.formats.map(\.rawValue))
    let properties = encoding?["properties"] as? [String: Any]
    expectEqual((properties?["preset"] as? [String: Any])?["enum"] as? [String], EncodingOptions.presets)
    expectEqual(
      (properties?["dither"] as? [String: Any])?["enum"] as? [String], EncodingOptions.Dither.allCases.map(\.rawValue))
    expectEqual(schema["additionalProperties"] as? Bool, false)
  }

  @Test func variantsFromEverySource() throws {
    let dir = try BatchFixtures.workspace()
    defer { try? FileManager.default.removeItem(at: dir) }
    let manifest = dir.appendingPathComponent("sources.json5")
    try """
    {
      flick: 1,
      renders: [
        { template: "slide.json5", name: "inline", variants: [{ accent: "#112233" }, "wide.params.json5"], formats: "png" },
        { template: "slide.json5", name: "json", data: "variants.json5", variantName: "distance", formats: ["png"] },
        { template: "pulse.json5", name: "csv", data: "variants.csv", formats: ["png"], sizes: "48x48" },
        { template: "hello", name: "bundled", formats: ["mp4"], frames: [0, 9] },
      ],
    }
    """.write(to: manifest, atomically: true, encoding: .utf8)
    let plan = try BatchPlan(manifest: try Manifest.load(path: manifest.path), flickVersion: "test")
    expectEqual(
      plan.jobs.map(\.spec.name),
      [
        "inline/1/128x72", "inline/wide.params/128x72", "json/10/128x72", "json/90/128x72",
        "csv/1/48x48", "csv/2/48x48", "csv/3/48x48", "bundled/default/640x360",
      ])
    // The values reached the scenes: the params file's distance and the CSV's tints differ.
    expectEqual(Set(plan.jobs.map(\.spec.id)).count, plan.jobs.count)
    expectEqual(plan.jobs[7].frames, 0..<10)
    expectEqual(plan.jobs[4].scale, 0.5)
  }

  @Test func csvReader() throws {
    let rows = try CSV.parse("\u{FEFF}a,b\r\n\"x, y\",\"say \"\"hi\"\"\"\n\n\"multi\nline\",2\n", file: "t.csv")
    expectEqual(
      rows,
      [
        CSV.Row(line: 1, fields: ["a", "b"]), CSV.Row(line: 2, fields: ["x, y", "say \"hi\""]),
        CSV.Row(line: 4, fields: ["multi\nline", "2"]),
      ])
    #expect(throws: TemplateError.self) { try CSV.parse("a\n\"open", file: "t.csv") }
  }
}
