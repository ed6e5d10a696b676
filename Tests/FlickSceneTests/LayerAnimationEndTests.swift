import FlickExpectations
import FlickMotion
import FlickScene
import Testing

/// At the scene time `begin + duration` an animation shows its end value, settled, whatever the
/// decimals: 0.2 + 0.5 is 0.7, but 0.7 − 0.2 is 0.49999999999999994, where a linear tween to 100
/// showed 99.99999999999999 and a spring its closed form instead of its target.
@Suite struct LayerAnimationEndTests {
  static func scene(_ animation: LayerAnimation) -> Scene {
    Scene(
      size: Size(width: 100, height: 100), fps: 10, duration: 10,
      layers: [Layer(id: "dot", position: Point(x: 0, y: 0))], animations: [animation])
  }

  @Test func theEndInstantShowsTheEndValue() throws {
    var misses: [String] = []
    for i in 0...40 {
      let begin = Double(i) * 5 / 100
      for j in 1...20 {
        let tween = BasicAnimation(from: 0.0, to: 100, duration: Double(j) * 5 / 100, timingFunction: .linear)
        let end = begin + tween.duration
        let x = Self.scene(LayerAnimation(layerID: "dot", property: .positionX, curve: tween, beginTime: begin))
          .renderTree(at: end).layer(id: "dot")?.position.x
        if x != 100 { misses.append("\(begin) + \(tween.duration): \(x ?? .nan)") }
      }
      let spring = SpringAnimation(from: 0.0, to: 100, parameters: SpringParameters(response: 0.3, dampingRatio: 1))
      let x = Self.scene(LayerAnimation(layerID: "dot", property: .positionX, curve: spring, beginTime: begin))
        .renderTree(at: begin + spring.duration).layer(id: "dot")?.position.x
      if x != 100 { misses.append("spring at \(begin): \(x ?? .nan)") }
    }
    #expect(misses.isEmpty, "\(misses.count) missed: \(misses.prefix(3))")
  }
}
