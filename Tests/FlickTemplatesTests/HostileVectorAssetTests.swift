import FlickScene
@testable import FlickTemplates
import FlickTestSupport
import Foundation
import Testing

/// A template's `lottie` layer and SVG `contents` written by an attacker: the file is checked
/// when the template loads, and the refusal names the template's node and the place in the file.
@Suite struct HostileVectorAssetTests {
  static func template(_ layer: String, in folder: URL, limits: TemplateLimits = TemplateLimits()) throws(TemplateError)
    -> Template
  {
    try Template.decode(
      "{ flick: 1, canvas: { width: 64, height: 64, fps: 10, duration: 1 },\n  layers: [ \(layer) ] }",
      file: "t.json5", options: TemplateOptions(limits: limits), baseFolder: folder.path)
  }

  @Test func aLottieLayerRefusesADuplicateKeyAndAnOversizedEmbeddedImage() throws {
    let folder = try ProcessRunner.temporaryDirectory(prefix: "flick-vector-asset")
    defer { try? FileManager.default.removeItem(at: folder) }
    let dup = #"{"v":"5","fr":10,"ip":0,"op":10,"w":64,"h":64,"assets":[],"layers":[],"assets":[]}"#
    try Data(dup.utf8).write(to: folder.appendingPathComponent("dup.json"))
    #expect {
      try Self.template(#"{ id: "l", type: "lottie", source: "dup.json" }"#, in: folder)
    } throws: { error in
      let text = "\(error)"
      return text.contains("t.json5:2:") && text.contains("Lottie file \"dup.json\" (line 1, column ")
        && text.contains("assets: duplicate key")
    }
    let bomb = "data:image/png;base64," + TinyPNG.base64(TinyPNG.header(width: 20000, height: 20000))
    let big =
      #"{"v":"5","fr":10,"ip":0,"op":10,"w":64,"h":64,"assets":[{"id":"i","p":""# + bomb + #"","e":1}],"layers":[]}"#
    try Data(big.utf8).write(to: folder.appendingPathComponent("big.json"))
    #expect {
      try Self.template(
        #"{ id: "l", type: "lottie", source: "big.json" }"#, in: folder,
        limits: TemplateLimits(maximumImagePixels: 1_000_000))
    } throws: { error in
      "\(error)".contains("20000×20000 pixels, more than the cap of 1000000")
    }
  }

  @Test func anSVGPictureThatRefersOutsideIsRefusedAtLoad() throws {
    let folder = try ProcessRunner.temporaryDirectory(prefix: "flick-vector-asset")
    defer { try? FileManager.default.removeItem(at: folder) }
    let svg =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"8\" height=\"8\">\n  <image href=\"/etc/hostname.png\"/></svg>"
    try Data(svg.utf8).write(to: folder.appendingPathComponent("p.svg"))
    #expect {
      try Self.template(#"{ id: "p", contents: "p.svg", size: [8, 8] }"#, in: folder)
    } throws: { error in
      let text = "\(error)"
      return text.contains("t.json5:2:") && text.contains("image \"p.svg\", line 2, column 10:")
        && text.contains("another file is not read")
    }
  }

  /// A picture whose dashes Cairo would walk without end (a pattern of 0.01 along 300,000
  /// units: 1.5 · 10⁷ dashes) is refused when the template loads, naming the file, the place and
  /// the attribute.
  @Test func anSVGPictureWithTooManyDashesIsRefusedAtLoad() throws {
    let folder = try ProcessRunner.temporaryDirectory(prefix: "flick-vector-asset")
    defer { try? FileManager.default.removeItem(at: folder) }
    let svg =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"8\" height=\"8\">\n  <path d=\"M0 0 L100000 0 L0 1 "
      + "L100000 1\" stroke=\"black\" stroke-dasharray=\"0.01\"/></svg>"
    try Data(svg.utf8).write(to: folder.appendingPathComponent("p.svg"))
    #expect {
      try Self.template(#"{ id: "p", contents: "p.svg", size: [8, 8] }"#, in: folder)
    } throws: { error in
      let text = "\(error)"
      return text.contains("t.json5:2:")
        && text.contains("image \"p.svg\", line 2, column 58: <path stroke-dasharray>: ")
        && text.contains("(1.5e+07 dashes; up to 1e+06 are drawn)")
    }
  }

  @Test func pathDataIsCapped() {
    let long = "M0 0" + String(repeating: " L1 1", count: ShapePath.maximumSVGPathElements)
    #expect(throws: ShapePathError.self) { try ShapePath(svgPathData: long) }
    #expect(throws: Never.self) { try ShapePath(svgPathData: "M0 0" + String(repeating: " L1 1", count: 1000)) }
  }
}
