import FlickMotion
import FlickScene
@testable import FlickTemplates
import FlickExpectations
import Foundation
import Testing

/// `constraints: { left, right, top, bottom, width, height, centerX, centerY }`: a sublayer laid
/// out in its superlayer's bounds, following it analytically (value and velocity, in the tracks
/// `flick trace` reads) when the superlayer's size animates; over- and under-constrained axes,
/// explicit animations of a constrained frame and misplaced constraints are refused.
@Suite struct ConstraintTests {
  /// `card` (200×100 at (200, 150)) grows to 300×200 with a linear tween over one second from 0.5 s;
  /// `child` is its sublayer with `constraints`.
  static func template(
    _ constraints: String, child: String = "", timeline: String = "", parameters: ParameterValues = ParameterValues()
  ) throws -> Template {
    try Template.decode(
      """
      { flick: 1, canvas: { width: 400, height: 300, fps: 30, duration: 2 },
        parameters: { inset: { type: "number", default: 10 } },
        layers: [
          { id: "card", size: [200, 100], position: [200, 150], backgroundColor: "#FFFFFF", sublayers: [
            { id: "child", size: [40, 20], backgroundColor: "#FF0000", constraints: \(constraints) \(child) } ] },
        ],
        timeline: [
          { at: 0.5, target: "card", animate: { size: [300, 200] }, curve: "linear", duration: 1 },
          \(timeline)
        ] }
      """, file: "constraints.json5", parameters: parameters)
  }

  static func state<V: Animatable>(_ t: Template, _ p: LayerProperty<V>, at time: Double) -> (value: V, velocity: V) {
    t.tracks.state(of: p, layerID: "child", at: time)
  }

  static func error(_ constraints: String, child: String = "", timeline: String = "") -> String {
    do {
      _ = try template(constraints, child: child, timeline: timeline)
      return "no error"
    } catch let error as TemplateError {
      return error.description
    } catch {
      return "\(error)"
    }
  }

  @Test func stretchedBetweenInsetsFollowsTheSuperlayer() throws {
    let t = try Self.template("{ left: 10, right: 10, top: 10, height: 30 }")
    // As written: 180 wide, 30 high, its centre at (100, 25).
    let child = t.scene.layers[0].sublayers[0]
    expectEqual(child.bounds.size, Size(width: 180, height: 30))
    expectEqual(child.position, Point(x: 100, y: 25))
    // Halfway through the growth the card is 250×150 and grows 100 pt/s each way.
    let size = Self.state(t, .size, at: 1)
    let position = Self.state(t, .position, at: 1)
    expectLess(abs(size.value.width - 230), 1e-9)
    expectEqual(size.value.height, 30)
    expectLess(abs(size.velocity.width - 100), 1e-9)
    expectEqual(size.velocity.height, 0)
    expectLess(abs(position.value.x - 125), 1e-9)
    expectLess(abs(position.value.y - 25), 1e-9)
    expectLess(abs(position.velocity.x - 50), 1e-9)
    expectEqual(position.velocity.y, 0)
    // The rendered scene shows the same frame (the tracks and the render agree).
    let rendered = t.scene.renderTree(at: 1).layer(id: "child")!
    expectLess(abs(rendered.bounds.width - 230), 1e-9)
    expectLess(abs(rendered.position.x - 125), 1e-9)
    // After the growth it holds at 280 wide.
    expectLess(abs(Self.state(t, .size, at: 1.9).value.width - 280), 1e-9)
  }

  @Test func pinsAndCentresEachCombination() throws {
    // Card grows to 300×200 by 1.5 s; each case: (constraints, size, position) at the end.
    let cases: [(String, Size, Point)] = [
      ("{ right: 10, width: 50, bottom: 5, height: 20 }", Size(width: 50, height: 20), Point(x: 265, y: 185)),
      ("{ centerX: 0, width: 50, centerY: -10, height: 20 }", Size(width: 50, height: 20), Point(x: 150, y: 90)),
      ("{ left: 20, centerX: 0, top: 0, bottom: 0 }", Size(width: 260, height: 200), Point(x: 150, y: 100)),
      ("{ right: 20, centerX: 10, top: 0 }", Size(width: 240, height: 20), Point(x: 160, y: 10)),
      ("{ left: 5 }", Size(width: 40, height: 20), Point(x: 25, y: 0)),
      ("{ centerX: 0 }", Size(width: 40, height: 20), Point(x: 150, y: 0)),
    ]
    for (constraints, size, position) in cases {
      let t = try Self.template(constraints)
      let s = Self.state(t, .size, at: 2).value
      let p = Self.state(t, .position, at: 2).value
      expectLess(abs(s.width - size.width), 1e-9, "\(constraints): \(s)")
      expectLess(abs(s.height - size.height), 1e-9, "\(constraints): \(s)")
      expectLess(abs(p.x - position.x), 1e-9, "\(constraints): \(p)")
      expectLess(abs(p.y - position.y), 1e-9, "\(constraints): \(p)")
    }
  }

  @Test func anAnchorPointIsKept() throws {
    let t = try Self.template("{ left: 0, right: 0, top: 0, height: 10 }", child: ", anchorPoint: [0, 0]")
    expectEqual(Self.state(t, .position, at: 0).value, Point(x: 0, y: 0))
    expectLess(abs(Self.state(t, .size, at: 2).value.width - 300), 1e-9)
  }

  @Test func badCombinationsAreRefusedByName() {
    let over = Self.error("{ left: 1, right: 1, width: 10 }")
    #expect(over.contains("over-constrained: 'left', 'right', 'width' all lay child out horizontally"), "\(over)")
    #expect(over.contains("constraints.width"), "\(over)")
    let under = Self.error("{ height: 10 }")
    #expect(under.contains("under-constrained: 'height' alone does not say where child sits vertically"), "\(under)")
    let typo = Self.error("{ lefft: 1 }")
    #expect(typo.contains("did you mean 'left'?"), "\(typo)")
    let tight = Self.error("{ left: 150, right: 150 }")
    #expect(tight.contains("leave child -100 points long horizontally"), "\(tight)")
  }

  @Test func anExplicitAnimationOfAConstrainedFrameIsRefused() {
    let error = Self.error(
      "{ left: 10, right: 10 }", timeline: #"{ at: 1, target: "child", animate: { positionX: 40 }, duration: 0.3 }"#)
    #expect(
      error.contains("timeline[1].animate.positionX: child is laid out by layers[0].sublayers[0].constraints"),
      "\(error)")
    // Its transform stays free.
    expectEqual(
      Self.error(
        "{ left: 10, right: 10 }",
        timeline: #"{ at: 1, target: "child", animate: { translationX: 40 }, duration: 0.3 }"#), "no error")
  }

  @Test func topLevelAndMaskConstraintsAreRefused() {
    do {
      _ = try Template.decode(
        #"{ flick: 1, canvas: { width: 100, height: 100, duration: 1 }, layers: [ { id: "a", constraints: { left: 0 } } ] }"#
      )
      Issue.record("no error")
    } catch {
      #expect("\(error)".contains("a is a top-level layer"), "\(error)")
    }
  }

  @Test func parametersAndComponents() throws {
    var values = ParameterValues()
    values.set("inset", text: "30")
    let t = try Self.template(#"{ left: "$inset", right: "$inset" }"#, parameters: values)
    expectLess(abs(Self.state(t, .size, at: 2).value.width - 240), 1e-9)
    let c = try Template.decode(
      """
      { flick: 1, canvas: { width: 400, height: 300, duration: 2 },
        components: { panel: {
          layer: { id: "x", size: [200, 50], sublayers: [ { id: "box", size: [100, 50], sublayers: [
            { id: "bar", size: [10, 4], constraints: { left: 5, right: 5, bottom: 0 } } ] } ] },
          timeline: [ { target: "box", animate: { size: [200, 50] }, curve: "linear", duration: 1 } ] } },
        layers: [ { id: "p", use: "panel", position: [200, 150] } ] }
      """)
    let s = c.tracks.state(of: .size, layerID: "p/bar", at: 0.5)
    expectLess(abs(s.value.width - 140), 1e-9)
    expectLess(abs(s.velocity.width - 100), 1e-9)
  }
}
