import FlickExpectations
import FlickMotion
import FlickScene
import FlickTemplates
import Testing

/// A colour hand-over into a `colorSpace` other than sRGB keeps every component's velocity (it
/// kept only the part along the new travel, remapped: (−1, 0, 1) → (−0.616, 1.726, 0.971)).
@Suite struct JoinColorSpaceTests {
  @Test(arguments: [
    ("oklab", #"curve: "easeInEaseOut", duration: 1"#), ("linear", #"curve: "easeInEaseOut", duration: 1"#),
    ("oklab", #"spring: {}"#), ("linear", #"curve: "linear", duration: 1"#), ("sRGB", #"spring: {}"#),
  ])
  func colourJoinKeepsTheVelocity(space: String, motion: String) throws {
    let t = try JoinTimingTests.template(
      """
      [ { at: 0, target: "a", animate: { backgroundColor: { to: "#0000FF", curve: "linear", duration: 1 } } },
        { at: 0.5, target: "a", animate: { backgroundColor: { to: "#00FF00", \(motion), colorSpace: "\(space)" } } } ]
      """)
    var tracks = t.tracks
    let p = AnyLayerProperty.named("backgroundColor")!
    let left = tracks.trace(p, layerID: "a", at: [0.5], limit: .left)[0]
    let right = tracks.trace(p, layerID: "a", at: [0.5], limit: .right)[0]
    expectGreater(left.velocity.map(abs).max() ?? 0, 0.5, "arriving \(left.velocity)")
    for i in left.value.indices {
      expectLess(abs(left.value[i] - right.value[i]), 1e-7, "value \(left.value) → \(right.value)")
      expectLess(abs(left.velocity[i] - right.velocity[i]), 1e-5, "velocity \(left.velocity) → \(right.velocity)")
    }
  }
}
