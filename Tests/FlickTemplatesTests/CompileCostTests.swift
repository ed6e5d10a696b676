import FlickMotion
import FlickScene
import FlickTemplates
import Testing

/// Compiling a timeline reads current values and velocities from property tracks: the work
/// grows linearly with the number of entries (no rendering of the scene being compiled, no
/// re-scanning of earlier animations). Counted, not timed: `make bench-compile` times it.
@Suite struct CompileCostTests {
  /// `layers` layers with 5 animations each: a drag, its release into a decay, a rotation
  /// tween handed to a decay, and a spring on opacity.
  static func template(layers: Int) -> String {
    var layerList: [String] = []
    var timeline: [String] = []
    for i in 0..<layers {
      layerList.append("{ id: \"l\(i)\", size: [20, 20], position: [\(i % 40 * 20), \(i / 40 * 20)] }")
      timeline.append(
        """
        { id: "d\(i)", target: "l\(i)", drag: { by: [[0, 0], [40, -10], [120, -30]], duration: 0.3 } },
        { after: "d\(i)", target: "l\(i)", release: { decay: { deceleration: 0.998 } } },
        { at: 0.1, id: "r\(i)", target: "l\(i)", animate: { rotation: "20deg" }, duration: 0.2 },
        { after: "r\(i)", target: "l\(i)", release: { property: "rotation", decay: {} } },
        { at: 0.2, target: "l\(i)", animate: { opacity: { to: 0.5, spring: { response: 0.3, dampingRatio: 0.6 } } } }
        """)
    }
    return """
      { flick: 1, canvas: { width: 800, height: 600, duration: 3 },
        layers: [\(layerList.joined(separator: ",\n"))],
        timeline: [\(timeline.joined(separator: ",\n"))] }
      """
  }

  @Test func curveEvaluationsGrowLinearlyWithTheEntries() throws {
    let small = try Template.decode(Self.template(layers: 100))
    let large = try Template.decode(Self.template(layers: 200))
    #expect(small.scene.animations.count == 500)
    #expect(large.scene.animations.count == 1000)
    let a = small.tracks.curveEvaluations
    let b = large.tracks.curveEvaluations
    #expect(a > 0)
    // Exactly proportional: each layer's entries cost the same, whatever came before.
    #expect(b == 2 * a, "\(a) evaluations for 100 layers, \(b) for 200")
    // A handful per animation (a start value and a start velocity), not a scan of the others.
    #expect(a <= 5 * small.scene.animations.count)
  }
}
