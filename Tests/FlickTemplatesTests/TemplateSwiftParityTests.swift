import FlickExpectations
import FlickMotion
import FlickScene
import FlickTemplates
import Testing

/// Issue 26: a scene written as a template and the same scene written in Swift (FlickScene's
/// Pop-style API) trace identically, hand-overs included: both build their curves with the one
/// ``CurveBuilder`` rule (a tween interrupting a moving property continues its velocity).
@Suite struct TemplateSwiftParityTests {
  @Test(arguments: [24, 30, 60, 120]) func springCutByAnEaseOutTween(fps: Int) throws {
    let join = 1.0 / 6
    let template = try Template.decode(
      """
      { flick: 1, canvas: { width: 400, height: 400, fps: \(fps), duration: 2 },
        layers: [ { id: "a", size: [40, 40], position: [100, 100] } ],
        timeline: [
          { target: "a", animate: { positionX: { to: 300, spring: { stiffness: 200, damping: 10 } } } },
          { at: \(join), target: "a", animate: { positionX: 150 }, curve: "easeOut", duration: 0.5 } ] }
      """, file: "parity.json5")
    var scene = Scene(
      size: Size(width: 400, height: 400), fps: fps, duration: 2,
      layers: [Layer(id: "a", bounds: Rect(x: 0, y: 0, width: 40, height: 40), position: Point(x: 100, y: 100))])
    scene.pop["a"].add(.spring(to: 300, SpringParameters(mass: 1, stiffness: 200, damping: 10)), for: .positionX, at: 0)
    scene.pop["a"].add(.tween(to: 150, duration: 0.5, curve: .easeOut), for: .positionX, at: join)
    try scene.validate()
    var moved = false
    for frame in 0..<template.scene.frameCount {
      let t = Double(frame) / Double(fps)
      let written = try #require(Self.layer(template.scene.renderTree(at: t), "a")).position.x
      let coded = try #require(Self.layer(scene.renderTree(at: t), "a")).position.x
      expectEqual(written, coded, "t = \(t): template \(written), Swift \(coded)")
      moved = moved || written != 100
    }
    #expect(moved)
  }

  /// A spring released into a decay without a velocity: the decay takes the spring's velocity,
  /// scaled so it starts moving at exactly that speed, in Swift (`PopAnimation.decay()`, through
  /// `LayerMotion`) as in a template (before, the Swift decay started 0.1 % slower).
  @Test(arguments: [24, 30, 60, 120]) func springReleasedIntoADecay(fps: Int) throws {
    let join = 0.1
    let template = try Template.decode(
      """
      { flick: 1, canvas: { width: 400, height: 400, fps: \(fps), duration: 2 },
        layers: [ { id: "a", size: [40, 40], position: [100, 100] } ],
        timeline: [
          { target: "a", animate: { positionX: { to: 300, spring: { stiffness: 200, damping: 10 } } } },
          { at: \(join), target: "a", animate: { positionX: { decay: { deceleration: 0.996 } } } } ] }
      """, file: "parity.json5")
    var scene = Self.scene(fps: fps)
    scene.pop["a"].add(.spring(to: 300, SpringParameters(mass: 1, stiffness: 200, damping: 10)), for: .positionX, at: 0)
    scene.pop["a"].add(.decay(deceleration: 0.996), for: .positionX, at: join)
    try scene.validate()
    try Self.expectSameTrace(template, scene, fps: fps)
  }

  /// A linear move retargeted by an `easeInEaseOut` tween: the tween continues the move's
  /// velocity (`ContinuingTween`) in Swift as in a template.
  @Test(arguments: [24, 30, 60, 120]) func linearMoveRetargetedByATween(fps: Int) throws {
    let join = 0.5
    let template = try Template.decode(
      """
      { flick: 1, canvas: { width: 400, height: 400, fps: \(fps), duration: 2 },
        layers: [ { id: "a", size: [40, 40], position: [100, 100] } ],
        timeline: [
          { target: "a", animate: { positionX: 300 }, curve: "linear", duration: 2 },
          { at: \(join), target: "a", animate: { positionX: 150 }, curve: "easeInEaseOut", duration: 0.6 } ] }
      """, file: "parity.json5")
    var scene = Self.scene(fps: fps)
    scene.pop["a"].add(.tween(to: 300, duration: 2, curve: .linear), for: .positionX, at: 0)
    scene.pop["a"].add(.tween(to: 150, duration: 0.6, curve: .easeInEaseOut), for: .positionX, at: join)
    try scene.validate()
    try Self.expectSameTrace(template, scene, fps: fps)
  }

  static func scene(fps: Int) -> Scene {
    Scene(
      size: Size(width: 400, height: 400), fps: fps, duration: 2,
      layers: [Layer(id: "a", bounds: Rect(x: 0, y: 0, width: 40, height: 40), position: Point(x: 100, y: 100))])
  }

  /// Every frame of layer "a"'s x is the same in the template and in the Swift scene, and it moves.
  static func expectSameTrace(_ template: Template, _ scene: Scene, fps: Int) throws {
    var moved = false
    for frame in 0..<template.scene.frameCount {
      let t = Double(frame) / Double(fps)
      let written = try #require(layer(template.scene.renderTree(at: t), "a")).position.x
      let coded = try #require(layer(scene.renderTree(at: t), "a")).position.x
      expectEqual(written, coded, "t = \(t): template \(written), Swift \(coded)")
      moved = moved || written != 100
    }
    #expect(moved)
  }

  static func layer(_ tree: RenderTree, _ id: String) -> Layer? {
    var stack = tree.layers
    while let l = stack.popLast() {
      if l.id == id { return l }
      stack += l.sublayers
    }
    return nil
  }
}
