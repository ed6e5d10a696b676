import FlickExpectations
import FlickTemplates
import FlickTestSupport
import Foundation
import Testing

/// Every bundled template renders at its defaults and with every parameter changed, and the
/// change shows in the frame and in `flick info` (the built `flick` binary, run with the
/// parameters this module reads from each template).
@Suite struct BundledTemplateTests {
  static let templates = FixturePaths.templates
  static let flick = ProcessRunner.flick(root: FixturePaths.root)
  static let names = FixturePaths.json5Files(in: templates).map { $0.deletingPathExtension().lastPathComponent }
  /// An image outside the template folder, to exercise `--allow-outside-assets` with an image parameter.
  static let otherImage = FixturePaths.fixtures.appendingPathComponent("layers/checker.png").path

  /// A valid value different from the default, as `--set` text.
  static func changed(_ p: TemplateParameter) -> String? {
    let current = p.defaultValue?.kind
    switch p.kind {
    case .color: return current == .string("#123456") ? "#654321" : "#123456"
    case .string: return "Changed text"
    case .font: return current == .string("DejaVu Sans") ? "Inter" : "DejaVu Sans"
    case .boolean: return current == .bool(true) ? "false" : "true"
    case .enum: return p.choices.first { current != .string($0) }
    case .image: return otherImage
    case .number, .integer:
      guard case .number(let d)? = current else { return p.minimum.map { "\($0)" } ?? "1" }
      let lo = p.minimum ?? d - 10
      let hi = p.maximum ?? d + 10
      var v = (lo + hi) / 2
      if p.kind == .integer { v = v.rounded(.down) }
      if v == d { v = p.kind == .integer ? (d + 1 <= hi ? d + 1 : d - 1) : (d + hi) / 2 }
      return p.kind == .integer ? String(Int(v)) : String(v)
    case .list: return nil
    }
  }

  @Test func galleryIsBundled() {
    for name in [
      "card-swap", "rotating-cover", "property-animator", "chained-sequence", "spring-gallery", "decay-flick",
    ] {
      #expect(Self.names.contains(name), "missing \(name)")
    }
  }

  @Test(arguments: names)
  func rendersAtDefaultsAndWithChangedParameters(_ name: String) throws {
    let template = try Template.load(path: Self.templates.appendingPathComponent("\(name).json5").path)
    #expect(!template.description.isEmpty, "\(name) needs a description for flick templates")
    let dir = try FixturePaths.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let time = String(template.scene.duration * 0.55)
    let plain = dir.appendingPathComponent("default.png").path
    let r = try ProcessRunner.run(Self.flick, ["still", name, "--time", time, "-o", plain])
    expectEqual(r.status, 0, "\(r.stderr)")
    guard !template.parameters.isEmpty else { return }

    var sets: [String] = []
    for p in template.parameters {
      if let v = Self.changed(p) { sets += ["--set", "\(p.name)=\(v)"] }
    }
    let changed = dir.appendingPathComponent("changed.png").path
    let c = try ProcessRunner.run(
      Self.flick, ["still", name, "--time", time, "-o", changed, "--allow-outside-assets"] + sets)
    expectEqual(c.status, 0, "\(c.stderr)")
    try expectNotEqual(Data(contentsOf: URL(fileURLWithPath: plain)), Data(contentsOf: URL(fileURLWithPath: changed)))
    let info = try ProcessRunner.run(Self.flick, ["info", name, "--allow-outside-assets"] + sets)
    expectEqual(info.status, 0, "\(info.stderr)")
    for p in template.parameters where Self.changed(p) != nil {
      let line = info.text.split(separator: "\n").first { $0.hasPrefix("  \(p.name) ") } ?? ""
      #expect(line.contains("(now "), "\(name): \(p.name) is not shown as changed: \(line)")
    }
  }
}
