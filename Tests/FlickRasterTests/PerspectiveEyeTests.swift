import FlickExpectations
import FlickMotion
import FlickScene
import Foundation
import Testing

@testable import FlickRaster

/// A 3D layer reaching the viewer's eye is clipped there, as in Core Animation: the part in
/// front of the eye is drawn through the same homography, the rest is not. The expected places
/// come from Core Animation's model, written out here: a point `x` points from the anchor of a
/// layer turned by `rotationY` θ goes to `(x·cos θ, y, −x·sin θ)`; with `m34 = −1/d` its
/// homogeneous w is `1 + x·sin θ / d` (behind the eye when ≤ 0) and it appears at
/// `position + (x·cos θ, y) / w`.
@Suite struct PerspectiveEyeTests {
  static let white = Color.white
  static let black = Color.black

  /// The screen x of the point `x` points right of the anchor at the anchor's height, nil when
  /// it is behind the eye.
  static func screenX(_ x: Double, turn θ: Double, perspective d: Double, center: Double = 480) -> Double? {
    let w = 1 + x * sin(θ) / d
    return w > 0 ? center + x * cos(θ) / w : nil
  }

  /// A white 960 × 540 panel filling a black 960 × 540 frame, turned about its vertical centre.
  static func panel(degrees: Double, perspective: Double) -> Layer {
    var panel = Layer(
      id: "panel", bounds: Rect(x: 0, y: 0, width: 960, height: 540), position: Point(x: 480, y: 270),
      backgroundColor: white)
    panel.transform = LayerTransform(rotationY: degrees * .pi / 180, perspective: perspective)
    return panel
  }

  static func render(_ layers: [Layer]) throws -> Frame {
    try Raster.render(layers, width: 960, height: 540, background: black)
  }

  /// The pixel's colour by name when it is within 8 levels of white, black, red, green or blue,
  /// else its values (a failure then names the pixel, not the whole frame).
  static func shade(_ frame: Frame, _ x: Int, _ y: Int) -> String {
    let names: [(String, Color)] = [
      ("white", white), ("black", black), ("red", Raster.red), ("green", Raster.green), ("blue", Raster.blue),
    ]
    for (name, color) in names where frame.pixel(x, y, is: color, tolerance: 8) { return name }
    let p = frame.rgba(x: x, y: y)
    return "rgba(\(p.r), \(p.g), \(p.b), \(p.a))"
  }

  /// The columns (ascending) holding a pixel whose blue or alpha (BGRA) differs from opaque black
  /// by more than 30 levels.
  static func inkColumns(_ frame: Frame) -> [Int] {
    var columns = Set<Int>()
    frame.pixels.withUnsafeBufferPointer { p in
      for y in 0..<frame.height {
        for x in 0..<frame.width {
          let i = y * frame.bytesPerRow + 4 * x
          if p[i] > 30 || p[i + 3] < 225 { columns.insert(x) }
        }
      }
    }
    return columns.sorted()
  }

  /// White pixels of row `y`.
  static func whiteCount(_ frame: Frame, row y: Int) -> Int {
    (0..<frame.width).filter { frame.pixel($0, y, is: white, tolerance: 8) }.count
  }

  /// A full-screen card flip with a perspective of 400 has its near edge behind the eye from
  /// asin(400/480) ≈ 56.4° to ≈ 123.6°: the part in front still covers the screen from the
  /// side nearest the eye to the far edge's image.
  @Test(arguments: [56.0, 57, 58, 64, 70, 80, 88, 92, 100, 110, 116, 122, 124])
  func aCardFlipShowsThePartInFrontOfTheEye(degrees: Double) throws {
    let θ = degrees * .pi / 180
    let frame = try Self.render([Self.panel(degrees: degrees, perspective: 400)])
    let far = try #require(Self.screenX(480, turn: θ, perspective: 400))
    let nearVisible = Self.screenX(-480, turn: θ, perspective: 400) == nil
    if degrees > 56.5 && degrees < 123.5 { #expect(nearVisible, "the near edge is behind the eye at \(degrees)°") }
    let row = 270
    if degrees < 90 {
      // From the left edge of the screen (where the near part goes) to the far edge's image.
      expectEqual(Self.shade(frame, 2, row), "white", "left edge at \(degrees)°")
      expectEqual(Self.shade(frame, Int(far) - 3, row), "white", "inside the far edge at \(degrees)°")
      expectEqual(Self.shade(frame, Int(far) + 3, row), "black", "beyond the far edge at \(degrees)°")
      expectLessOrEqual(abs(Double(Self.whiteCount(frame, row: row)) - far), 2, "white run at \(degrees)°")
    } else {
      // Turned past 90° the back shows (double-sided), from the far edge's image to the right.
      expectEqual(Self.shade(frame, 957, row), "white", "right edge at \(degrees)°")
      expectEqual(Self.shade(frame, Int(far) + 3, row), "white", "inside the far edge at \(degrees)°")
      expectEqual(Self.shade(frame, Int(far) - 3, row), "black", "beyond the far edge at \(degrees)°")
      expectLessOrEqual(abs(Double(Self.whiteCount(frame, row: row)) - (960 - far)), 2, "white run at \(degrees)°")
    }
  }

  /// The review's figures: 70° under a perspective of 400 and of 500 (about 557 and 566 white
  /// pixels on the middle row).
  @Test func theReviewedPanelsCoverTheirFrontPart() throws {
    for (d, expected) in [(400.0, 557.0), (500, 566)] {
      let frame = try Self.render([Self.panel(degrees: 70, perspective: d)])
      let far = try #require(Self.screenX(480, turn: 70 * .pi / 180, perspective: d))
      expectLessOrEqual(abs(far - expected), 1)
      expectLessOrEqual(abs(Double(Self.whiteCount(frame, row: 270)) - far), 2, "perspective \(d)")
    }
  }

  /// What the plane carries is clipped with it: its border, a sublayer flattened into it and
  /// its shadow, each where the projection puts it.
  @Test func contentOfAClippedPlaneLandsWhereTheProjectionPutsIt() throws {
    let red = Raster.red
    let green = Raster.green
    let blue = Raster.blue
    var panel = Self.panel(degrees: 70, perspective: 400)
    panel.borderWidth = 30
    panel.borderColor = red
    panel.shadowOpacity = 1
    panel.shadowColor = blue
    panel.shadowRadius = 0
    panel.shadowOffset = Point(x: 0, y: 40)
    // A 100-point square 130 points left of the panel's centre (part of the near half).
    panel.sublayers = [
      Layer(
        id: "square", bounds: Rect(x: 0, y: 0, width: 100, height: 100), position: Point(x: 350, y: 270),
        backgroundColor: green)
    ]
    let frame = try Self.render([panel])
    let θ = 70 * Double.pi / 180
    /// The screen place of the point (x, y) points from the panel's centre.
    func place(_ x: Double, _ y: Double) -> (Int, Int) {
      let w = 1 + x * sin(θ) / 400
      return (Int((480 + x * cos(θ) / w).rounded()), Int((270 + y / w).rounded()))
    }
    let square = place(-130, 0)
    expectEqual(Self.shade(frame, square.0, square.1), "green", "square at \(square)")
    let border = place(300, -255)
    expectEqual(Self.shade(frame, border.0, border.1), "red", "top border at \(border)")
    let shadow = place(300, 290)
    expectEqual(Self.shade(frame, shadow.0, shadow.1), "blue", "shadow at \(shadow)")
    expectEqual(Self.shade(frame, 2, 270), "white")
  }

  /// A sublayer reaching the eye counts in its superlayer's ink: a flat superlayer's group
  /// (opacity) and a 3D superlayer's plane both hold its part in front of the eye.
  @Test func aSublayerReachingTheEyeCountsInItsSuperlayer() throws {
    var group = Layer(id: "group", bounds: Rect(x: 0, y: 0, width: 960, height: 540), position: Point(x: 480, y: 270))
    group.opacity = 0.5
    group.sublayers = [Self.panel(degrees: 70, perspective: 400)]
    let faded = try Self.render([group])
    for x in [2, 300, 550] {
      let p = faded.rgba(x: x, y: 270)
      expectLessOrEqual(abs(Int(p.r) - 128), 2, "faded at \(x)")
    }
    expectEqual(Self.shade(faded, 600, 270), "black")
    var tilted = group
    tilted.opacity = 1
    tilted.transform = LayerTransform(rotationX: 0.01, perspective: 5000)
    let frame = try Self.render([tilted])
    expectEqual(Self.shade(frame, 2, 270), "white")
    expectEqual(Self.shade(frame, 540, 270), "white")
    expectEqual(Self.shade(frame, 620, 270), "black")
  }

  /// A layer wholly behind the eye draws nothing (its mirrored image is not drawn either).
  @Test func aLayerWhollyBehindTheEyeDrawsNothing() throws {
    var behind = Layer(
      id: "behind", bounds: Rect(x: 0, y: 0, width: 200, height: 540), position: Point(x: 480, y: 270),
      anchorPoint: Point(x: 3, y: 0.5), backgroundColor: Self.white)
    behind.transform = LayerTransform(rotationY: 70 * .pi / 180, perspective: 300)
    // From the anchor its points lie 400 to 600 points to the left: w from 1 − 600·sin 70°/300 to
    // 1 − 400·sin 70°/300, all negative.
    #expect(Self.screenX(-400, turn: 70 * .pi / 180, perspective: 300) == nil)
    expectEqual(Self.inkColumns(try Self.render([behind])), [])
  }

  /// Exactly edge-on (90°) the plane is a line; a corner exactly at the eye (w = 0) or a hair
  /// either side of it draws the rest, with no NaN reaching the pixels.
  @Test func edgeOnAndCornersAtTheEyeDrawCleanly() throws {
    let edgeOn = Self.inkColumns(try Self.render([Self.panel(degrees: 90, perspective: 400)]))
    expectLessOrEqual((edgeOn.last ?? 480) - (edgeOn.first ?? 480), 2)
    // At 30° under a perspective of 240 the left corners are at w = 1 − 480·sin 30°/240 = 0.
    let θ = 30 * Double.pi / 180
    for d in [240, 240 * (1 + 1e-12), 240 * (1 - 1e-12), 240 * (1 + 1e-9), 240 * (1 + 1e-6)] {
      let frame = try Self.render([Self.panel(degrees: 30, perspective: d)])
      let far = try #require(Self.screenX(480, turn: θ, perspective: d))
      expectEqual(Self.shade(frame, 2, 270), "white", "left edge at d = \(d)")
      expectEqual(Self.shade(frame, Int(far) - 3, 270), "white", "inside at d = \(d)")
      expectEqual(Self.shade(frame, Int(far) + 3, 270), "black", "beyond at d = \(d)")
    }
  }

  /// Under a perspective of half a point nearly all of a turned panel is behind the eye; a
  /// one-sided panel facing the viewer still draws its front part.
  @Test func aOneSidedPanelUnderATinyPerspectiveDrawsItsFront() throws {
    for degrees in [70.0, -70] {
      var panel = Self.panel(degrees: degrees, perspective: 0.5)
      panel.isDoubleSided = false
      let frame = try Self.render([panel])
      // The far edge's image is within a point of the centre; the near part fills the side
      // towards the eye (left for a positive turn).
      let far = try #require(Self.screenX(degrees > 0 ? 480 : -480, turn: degrees * .pi / 180, perspective: 0.5))
      expectLessOrEqual(abs(far - 480), 1)
      let (inside, outside) = degrees > 0 ? (300, 700) : (700, 300)
      expectEqual(Self.shade(frame, inside, 270), "white", "\(degrees)°")
      expectEqual(Self.shade(frame, outside, 270), "black", "\(degrees)°")
    }
  }

  /// A flip through the eye is deterministic and its frames drawn with damage regions are
  /// those drawn whole.
  @Test func aFlipThroughTheEyeIsDeterministicAndDamageSafe() throws {
    // The panel at half size (the same angles reach the eye).
    var card = Layer(
      id: "card", bounds: Rect(x: 0, y: 0, width: 480, height: 270), position: Point(x: 240, y: 135),
      backgroundColor: Self.white)
    card.transform.perspective = 200
    card.sublayers = [
      Layer(
        id: "dot", bounds: Rect(x: 0, y: 0, width: 40, height: 40), position: Point(x: 100, y: 100),
        backgroundColor: Raster.red, cornerRadius: 20)
    ]
    let renderer = FrameRenderer()
    for degrees in [40.0, 52, 58, 70, 90, 104, 122, 128, 140] {
      card.transform.rotationY = degrees * .pi / 180
      let tree = Raster.tree([card], width: 480, height: 270, background: Self.black)
      let whole = try Renderer().render(tree)
      try expectEqual(Renderer().render(tree), whole, "repeat at \(degrees)°")
      try expectEqual(renderer.render(tree), whole, "damage at \(degrees)°")
    }
  }
}
