/// The synthetic template that the compile-cost test counts and `make bench-compile` times:
/// `layers` 20 × 20 layers on an 800 × 600, 3 s canvas, each with 5 animations (a drag and its
/// release into a decay, a rotation tween handed to a decay, a spring on opacity).
package enum AnimatedLayersTemplate {
  /// The template's JSON5 text for `layers` layers (5 × `layers` animations).
  package static func text(layers: Int) -> String {
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
}
