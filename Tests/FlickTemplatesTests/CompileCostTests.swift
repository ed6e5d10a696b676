import FlickExpectations
import FlickMotion
import FlickScene
import FlickTemplates
import FlickTestSupport
import Testing

/// Compiling a timeline reads current values and velocities from property tracks: the work
/// grows linearly with the number of entries (no rendering of the scene being compiled, no
/// re-scanning of earlier animations). Counted, not timed: `make bench-compile` times it.
@Suite struct CompileCostTests {
  @Test func curveEvaluationsGrowLinearlyWithTheEntries() throws {
    let small = try Template.decode(AnimatedLayersTemplate.text(layers: 100))
    let large = try Template.decode(AnimatedLayersTemplate.text(layers: 200))
    expectEqual(small.scene.animations.count, 500)
    expectEqual(large.scene.animations.count, 1000)
    let a = small.tracks.curveEvaluations
    let b = large.tracks.curveEvaluations
    expectGreater(a, 0)
    // Exactly proportional: each layer's entries cost the same, whatever came before.
    expectEqual(b, 2 * a, "\(a) evaluations for 100 layers, \(b) for 200")
    // A handful per animation (a start value and a start velocity), not a scan of the others.
    expectLessOrEqual(a, 5 * small.scene.animations.count)
  }

  /// `n` tweens of one layer's opacity one after the other, each removed at its end (`fill:
  /// "removed"`) and each taking over the value the layer shows when it starts.
  static func removedTweens(_ n: Int) -> String {
    let entries = (0..<n).map { i in
      "{ at: \(Double(i) / 100), target: \"box\", animate: { opacity: { to: \(Double(i % 10) / 10), "
        + "curve: \"linear\", duration: 0.005, fill: \"removed\" } } }"
    }
    return """
      { flick: 1, canvas: { width: 10, height: 10, duration: \(n / 100 + 1) },
        layers: [{ id: "box", size: [10, 10], backgroundColor: "#f00", opacity: 0.5 }],
        timeline: [\(entries.joined(separator: ",\n"))] }
      """
  }

  /// The start value of each tween is looked up where the earlier ones have ended and no longer
  /// apply: every look-up asked each of them again, so compiling n of them asked n²/2 segments
  /// (20,000 took minutes). A look-up now passes over the segments that ended before its time
  /// together, asking a handful.
  @Test func lookUpsPassOverRemovedAnimationsTogether() throws {
    let small = try Template.decode(Self.removedTweens(1000))
    let large = try Template.decode(Self.removedTweens(2000))
    let a = small.tracks.segmentLooks
    let b = large.tracks.segmentLooks
    expectLessOrEqual(a, 10 * 1000, "\(a) segments asked for 1,000 tweens")
    expectLessOrEqual(b, 10 * 2000, "\(b) segments asked for 2,000 tweens")
    // What they show is unchanged: each tween from the layer's own 0.5 while it runs, 0.5 again
    // once it is removed.
    for (i, t) in [(7, 0.0725), (1500, 15.0025)] {
      let shown = large.tracks.state(of: .opacity, layerID: "box", at: t).value
      let halfway = 0.5 + (Double(i % 10) / 10 - 0.5) / 2
      #expect(abs(shown - halfway) < 1e-6, "during tween \(i): \(shown)")
      expectEqual(large.tracks.state(of: .opacity, layerID: "box", at: t + 0.004).value, 0.5, "after tween \(i)")
    }
  }
}
