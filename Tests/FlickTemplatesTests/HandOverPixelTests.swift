import FlickExpectations
import FlickMotion
import FlickRaster
import FlickScene
import FlickTemplates
import Testing

/// The hand-overs seen in pixels: a white square on black, thrown by a tween into a release
/// decay (and by a drag into a spring). In every rendered frame around the join the square's
/// centroid is where the traced value says (within 0.02 px), so the continuity `flick trace`
/// shows is what a render shows.
@Suite struct HandOverPixelTests {
  /// The x of the white pixels' centroid (alpha-weighted brightness) in row band `rows`.
  static func centroidX(_ frame: Frame, rows: Range<Int>) -> Double {
    var sum = 0.0
    var weight = 0.0
    for y in rows {
      for x in 0..<frame.width {
        let w = Double(frame.rgba(x: x, y: y).r)
        sum += w * (Double(x) + 0.5)
        weight += w
      }
    }
    return sum / weight
  }

  @Test(arguments: [24, 30, 60, 120]) func tweenAndDragHandOversInPixels(fps: Int) throws {
    let q = Double(fps / 4) / Double(fps)
    var template = try Template.decode(
      """
      { flick: 1, canvas: { width: 480, height: 60, fps: \(fps), duration: 1.5, background: "#000000" },
        layers: [
          { id: "a", size: [20, 20], position: [40, 15], backgroundColor: "#FFFFFF" },
          { id: "b", size: [20, 20], position: [40, 45], backgroundColor: "#FFFFFF" } ],
        timeline: [
          { id: "t", target: "a", animate: { positionX: 200 }, curve: "easeIn", duration: \(q) },
          { after: "t", target: "a", release: { property: "positionX", decay: { deceleration: 0.995 } } },
          { id: "d", target: "b", drag: { by: [[0, 0], [60, 0], [160, 0]], duration: \(q), curve: "easeIn" } },
          { after: "d", target: "b", release: { to: [300, 45], spring: { bounciness: 4, speed: 10 } } } ] }
      """, file: "pixels.json5")
    let renderer = Renderer()
    let join = Int((q * Double(fps)).rounded())
    let p = AnyLayerProperty.named("positionX")!
    for n in (join - 2)...(join + 2) {
      let t = Double(n) / Double(fps)
      let frame = try renderer.render(template.scene.renderTree(at: t))
      let traced = template.tracks.trace(p, layerID: "a", at: [t])[0].value[0]
      let tracedB = template.tracks.trace(p, layerID: "b", at: [t])[0].value[0]
      expectLess(abs(Self.centroidX(frame, rows: 5..<25) - traced), 0.02, "a at frame \(n), \(fps) fps")
      expectLess(abs(Self.centroidX(frame, rows: 35..<55) - tracedB), 0.02, "b at frame \(n), \(fps) fps")
    }
    // And the traced motion is C¹ at the join.
    let left = template.tracks.trace(p, layerID: "a", at: [q], limit: .left)[0]
    let right = template.tracks.trace(p, layerID: "a", at: [q], limit: .right)[0]
    expectLessOrEqual(abs(left.velocity[0] - right.velocity[0]), 1e-6 * abs(left.velocity[0]))
  }

  /// Issue 26's joins in pixels: a spring cut by an `easeOut` tween (row a) and a repeated group
  /// interrupted by a later tween (row b). Around each join every frame shows the traced
  /// position, and the traced motion keeps its velocity through the join (within 1 % of it).
  @Test(arguments: [24, 30, 60, 120]) func interruptingTweensInPixels(fps: Int) throws {
    let sixth = 1.0 / 6
    var template = try Template.decode(
      """
      { flick: 1, canvas: { width: 1400, height: 60, fps: \(fps), duration: 1.5, background: "#000000" },
        layers: [
          { id: "a", size: [20, 20], position: [40, 15], backgroundColor: "#FFFFFF" },
          { id: "b", size: [20, 20], position: [40, 45], backgroundColor: "#FFFFFF" } ],
        timeline: [
          { target: "a", animate: { positionX: { to: 400, spring: { stiffness: 200, damping: 10 } } } },
          { at: \(sixth), target: "a", animate: { positionX: 200 }, curve: "easeOut", duration: 0.5 },
          { group: [ { target: "b", animate: { positionX: 160 }, curve: "easeInEaseOut", duration: 0.25 } ],
            repeat: 3, autoreverses: true },
          { at: \(4 * sixth), target: "b", animate: { positionX: 300 }, curve: "easeOut", duration: 0.5 } ] }
      """, file: "interrupting.json5")
    let renderer = Renderer()
    let p = AnyLayerProperty.named("positionX")!
    for (layer, rows, join) in [("a", 5..<25, sixth), ("b", 35..<55, 4 * sixth)] {
      let frameAtJoin = Int((join * Double(fps)).rounded())
      for n in (frameAtJoin - 2)...(frameAtJoin + 2) {
        let t = Double(n) / Double(fps)
        let frame = try renderer.render(template.scene.renderTree(at: t))
        let traced = template.tracks.trace(p, layerID: layer, at: [t])[0].value[0]
        expectGreater(traced, 20, "\(layer) stays on the canvas at frame \(n)")
        expectLess(traced, 1380, "\(layer) stays on the canvas at frame \(n)")
        expectLess(abs(Self.centroidX(frame, rows: rows) - traced), 0.02, "\(layer) at frame \(n), \(fps) fps")
      }
      let left = template.tracks.trace(p, layerID: layer, at: [join], limit: .left)[0]
      let right = template.tracks.trace(p, layerID: layer, at: [join], limit: .right)[0]
      expectGreater(abs(left.velocity[0]), 50, "\(layer) is moving at the join")
      expectLessOrEqual(
        abs(left.velocity[0] - right.velocity[0]), 0.01 * abs(left.velocity[0]),
        "\(layer): \(left.velocity[0]) → \(right.velocity[0]) pt/s at \(join) s, \(fps) fps")
    }
  }
}
