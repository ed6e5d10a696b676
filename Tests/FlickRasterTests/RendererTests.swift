import FlickExpectations
import FlickMotion
import FlickRaster
import FlickScene
import Foundation
import Testing

@Suite struct RendererTests {
  static func scene() -> Scene {
    Scene(
      size: Size(width: 200, height: 100), fps: 10, duration: 1,
      backgroundColor: Color(hex: "#102030")!,
      layers: [
        Layer(
          id: "box", bounds: Rect(x: 0, y: 0, width: 60, height: 40), position: Point(x: 50, y: 50),
          backgroundColor: Color(hex: "#F97316")!, cornerRadius: 10)
      ],
      animations: [
        LayerAnimation(
          layerID: "box", property: .position,
          tween: BasicAnimation(
            from: Point(x: 50, y: 50), to: Point(x: 150, y: 50), duration: 1, timingFunction: .linear))
      ])
  }

  @Test func pixelProbeFindsTheRectangleAndTheBackground() throws {
    let frame = try Renderer().render(Self.scene().renderTree(at: 0))
    expectEqual(frame.width, 200)
    expectEqual(frame.height, 100)
    let centre = frame.rgba(x: 50, y: 50)
    expectEqual(centre.r, 0xF9)
    expectEqual(centre.g, 0x73)
    expectEqual(centre.b, 0x16)
    expectEqual(centre.a, 255)
    let outside = frame.rgba(x: 150, y: 50)
    expectEqual(outside.r, 0x10)
    expectEqual(outside.g, 0x20)
    expectEqual(outside.b, 0x30)
    expectEqual(outside.a, 255)
    // The rounded corner leaves the very corner pixel of the box's frame (20, 30) as background.
    let corner = frame.rgba(x: 20, y: 30)
    expectEqual(corner.r, 0x10)
    expectEqual(corner.g, 0x20)
  }

  @Test func theTweenMovesTheRectangle() throws {
    let frame = try Renderer().render(Self.scene().renderTree(at: 0.5))
    expectEqual(frame.rgba(x: 100, y: 50).r, 0xF9)
    expectEqual(frame.rgba(x: 50, y: 50).r, 0x10)
  }

  @Test func pngRoundTripKeepsPixels() throws {
    let frame = try Renderer().render(Self.scene().renderTree(at: 0.25))
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("flick-roundtrip-\(getpid()).png").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try frame.writePNG(to: path)
    let decoded = try Frame(pngAt: path)
    expectEqual(decoded, frame)
  }

  @Test func transparentBackgroundStaysTransparent() throws {
    var scene = Self.scene()
    scene.backgroundColor = .clear
    let frame = try Renderer().render(scene.renderTree(at: 0))
    expectEqual(frame.rgba(x: 150, y: 50).a, 0)
    expectEqual(frame.rgba(x: 50, y: 50).a, 255)
  }

  @Test func renderingIsDeterministic() throws {
    let tree = Self.scene().renderTree(at: 0.37)
    try expectEqual(Renderer().render(tree), Renderer().render(tree))
  }
}
