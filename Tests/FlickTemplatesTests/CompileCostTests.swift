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
}
