import FlickExpectations
import FlickMotion
import Foundation
import Testing

@testable import FlickScene

/// The part of a plane in front of the viewer's eye, found in the plane's own coordinates.
@Suite struct ProjectiveClipTests {
  /// A 960 × 540 layer about its centre at (480, 270), turned by `degrees` about its vertical axis
  /// under perspective `d`.
  static func turned(_ degrees: Double, perspective d: Double) -> Layer {
    var layer = Layer(id: "p", bounds: Rect(x: 0, y: 0, width: 960, height: 540), position: Point(x: 480, y: 270))
    layer.transform = LayerTransform(rotationY: degrees * .pi / 180, perspective: d)
    return layer
  }

  @Test func aPlaneWhollyInFrontKeepsItsCorners() {
    let layer = Self.turned(40, perspective: 1000)
    let corners = layer.bounds.cornerPolygon
    expectEqual(layer.transformToSuperlayer.frontPart(of: corners), corners)
  }

  @Test func aPlaneThroughTheEyeIsCutWhereWIsNearlyZero() throws {
    // w = 1 + x·sin θ / d for x points from the centre: 0 at x = −d / sin θ.
    let layer = Self.turned(70, perspective: 400)
    let m = layer.transformToSuperlayer
    let front = m.frontPart(of: layer.bounds.cornerPolygon)
    expectEqual(front.count, 4)
    let cut = 480 - 400 / sin(70 * Double.pi / 180)
    for p in front {
      expectGreaterOrEqual(m.w(at: p), ProjectiveTransform.nearestW * 0.999)
      #expect(p.x >= cut - 1e-6)
    }
    expectLess(abs((front.map(\.x).min() ?? 0) - cut), 1e-6)
    // Within the frame, the near part ends at the frame's left edge.
    let inFrame = m.frontPart(of: layer.bounds.cornerPolygon, within: Rect(x: 0, y: 0, width: 960, height: 540))
    for p in inFrame.map(m.frontImage) {
      #expect(p.x >= -1e-6 && p.x <= 960 + 1e-6 && p.y >= -1e-6 && p.y <= 540 + 1e-6, "\(p)")
    }
    let far = 480 + 480 * cos(70 * Double.pi / 180) / (1 + 480 * sin(70 * Double.pi / 180) / 400)
    expectLess(abs((inFrame.map { m.frontImage(of: $0).x }.max() ?? 0) - far), 1e-6)
  }

  @Test func aPlaneWhollyBehindTheEyeLeavesNothing() {
    var layer = Self.turned(70, perspective: 300)
    layer.anchorPoint = Point(x: 3, y: 0.5)
    expectEqual(layer.transformToSuperlayer.frontPart(of: layer.bounds.cornerPolygon), [])
  }

  @Test func aNonFiniteMapLeavesNothing() {
    let m = ProjectiveTransform(1, 0, 0, 0, 1, 0, .nan, 0, 1)
    expectEqual(m.frontPart(of: Rect(x: 0, y: 0, width: 10, height: 10).cornerPolygon), [])
  }
}
