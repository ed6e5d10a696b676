import FlickMotion
import FlickScene
@testable import FlickTemplates
import FlickExpectations
import Foundation
import Testing

/// `lottie` layers in templates: the file is confined and inspected at load time, and its frame
/// is an animatable property (its own clock, a spring, or a scrub).
@Suite struct LottieLayerTests {
  static let badge = FixturePaths.templates.appendingPathComponent("lottie/success-badge.json").path

  static func template(_ layer: String, timeline: String = "", folder: URL = FixturePaths.templates)
    throws(TemplateError) -> Template
  {
    try Template.decode(
      """
      { flick: 1, canvas: { width: 300, height: 300, fps: 30, duration: 4 },
        layers: [ \(layer) ], timeline: [ \(timeline) ] }
      """, file: "t.json5", baseFolder: folder.path)
  }

  static func lottie(_ t: Template, at time: Double, id: String = "b") -> LottieContent? {
    t.scene.renderTree(at: time).layers.first { $0.id == id }?.lottie
  }

  @Test func theBundledTemplateDrivesTheBadgeWithASpring() throws {
    let t = try Template.load(path: FixturePaths.templates.appendingPathComponent("lottie-spring.json5").path)
    func progress(_ time: Double) -> Double? {
      t.scene.renderTree(at: time).layers.first?.sublayers.first { $0.id == "badge" }?.lottie?.progress
    }
    expectEqual(progress(0), 0)
    expectEqual(progress(0.5), 0)  // the spring starts at 0.55 s; the badge's own clock is off
    let mid = try #require(progress(0.8))
    expectGreater(mid, 0)
    expectLess(mid, 1.2)
    expectLess(abs((progress(2.9) ?? 0) - 1), 0.01)
    // A bouncy spring overshoots its target on the way: progress goes past 1 at some frame.
    let peak = (0..<90).compactMap { progress(Double($0) / 30) }.max() ?? 0
    expectGreater(peak, 1)
  }

  @Test func aLayerPlaysByItselfAtTheFilesRateAndSpeed() throws {
    let t = try Self.template(
      #"{ id: "b", type: "lottie", source: "lottie/success-badge.json", position: [150, 150] }"#)
    let layer = try #require(t.scene.layers.first)
    expectEqual(layer.bounds.size, Size(width: 240, height: 240))  // the composition's size
    expectEqual(Self.lottie(t, at: 0)?.frameIndex, 0)
    expectEqual(Self.lottie(t, at: 1)?.frameIndex, 30)
    expectEqual(Self.lottie(t, at: 3)?.frameIndex, 59)  // held at the end
    let looped = try Self.template(
      #"{ id: "b", source: "lottie/success-badge.json", loop: true, speed: 2, beginTime: 0.5, frame: 10 }"#)
    expectEqual(Self.lottie(looped, at: 0.25)?.frameIndex, 10)  // before beginTime
    expectEqual(Self.lottie(looped, at: 1)?.frameIndex, 40)  // 10 + 0.5 s × 30 fps × 2
    expectEqual(Self.lottie(looped, at: 1.5)?.frameIndex, 10)  // 10 + 60 wraps to 10
  }

  @Test func theTimelineWinsOverTheLayersOwnClock() throws {
    let t = try Self.template(
      #"{ id: "b", source: "lottie/success-badge.json" }"#,
      timeline: #"{ at: 1, target: "b", animate: { frame: { from: 0, to: 20 } }, curve: "linear", duration: 1 }"#)
    expectEqual(Self.lottie(t, at: 0.5)?.frameIndex, 15)  // its own clock until the timeline starts
    expectEqual(Self.lottie(t, at: 1.5)?.frameIndex, 10)
    expectEqual(Self.lottie(t, at: 3)?.frameIndex, 20)
  }

  @Test func errorsNameTheFileAndTheProblem() throws {
    func message(_ layer: String, folder: URL = FixturePaths.templates) -> String {
      do {
        _ = try Self.template(layer, folder: folder)
        return ""
      } catch {
        return error.description
      }
    }
    #expect(message(#"{ id: "b", type: "lottie" }"#).contains("a lottie layer needs a 'source'"))
    #expect(message(#"{ id: "b", source: "lottie/missing.json" }"#).contains("no such file"))
    let lottieFolder = FixturePaths.templates.appendingPathComponent("lottie")
    #expect(
      message(#"{ id: "b", source: "../lottie-spring.json5" }"#, folder: lottieFolder).contains(
        "outside the template's folder"))
    #expect(message(#"{ id: "b", source: "lottie-spring.json5" }"#).contains("is not a Lottie file"))
    #expect(message(#"{ id: "b", source: "lottie/success-badge.json", frame: 2, progress: 0.5 }"#).contains("not both"))
    #expect(message(#"{ id: "b", source: "lottie/success-badge.json", frame: 60 }"#).contains("0…59"))
    // A file using what rlottie does not draw is refused at load time, naming the feature.
    let folder = try FixturePaths.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let text = FixturePaths.root.appendingPathComponent("Tests/FlickRasterTests/Fixtures/lottie/has-text.json")
    try FileManager.default.copyItem(at: text, to: folder.appendingPathComponent("has-text.json"))
    let refused = message(#"{ id: "b", source: "has-text.json" }"#, folder: folder)
    #expect(refused.contains("has-text.json"))
    #expect(refused.contains("a text layer"))
    #expect(refused.contains("expressions"))
  }
}
