import FlickExpectations
import FlickMotion
import FlickScene
import Testing

/// `LayerProperty(\.keyPath)` takes its name from the catalogue's table, not from printing the
/// key path: a catalogued key path is the catalogued property (so aliases share one key), and
/// `Scene.validate()` reports two keys hiding each other's animation of one state.
@Suite struct KeyPathTableTests {
  static func scene() -> Scene {
    Scene(
      size: Size(width: 200, height: 200), fps: 30, duration: 2,
      layers: [Layer(id: "card", bounds: Rect(x: 0, y: 0, width: 50, height: 50), position: Point(x: 100, y: 100))])
  }

  @Test func catalogueKeyPathsAreTheCatalogueProperties() {
    expectEqual(LayerProperty(\Layer.transform.scale).name, "scaleXY")
    expectEqual(LayerProperty(\Layer.transform.scale.x).name, "scaleX")
    expectEqual(LayerProperty(\Layer.transform.rotation).name, "rotation")
    expectEqual(LayerProperty(\Layer.bounds.size).name, "size")
    expectEqual(LayerProperty(\Layer.position.y).name, "positionY")
    expectEqual(LayerProperty(\Layer.shadowRadius).threshold, LayerProperty.shadowRadius.threshold)
    // Every row with a key path: the path's property is the row's (name and threshold).
    for d in LayerPropertyDescriptor.catalogue {
      guard let path = d.keyPath?.path else { continue }
      expectEqual(LayerProperty<Double>.name(of: path), d.name)
      expectEqual(LayerPropertyDescriptor.reached(by: path)?.name, d.name)
    }
  }

  @Test func otherKeyPathsAreNamedFromTheTable() {
    expectEqual(LayerProperty(\Layer.bounds.origin.x).name, "bounds.origin.x")
    expectEqual(LayerProperty(\Layer.backgroundColor.alpha).name, "backgroundColor.alpha")
    expectEqual(LayerProperty(\Layer.shadowOffset.y).name, "shadowOffset.y")
    expectEqual(LayerProperty(\Layer.colorMultiplier).name, "colorMultiplier")
    expectEqual(LayerProperty(\Layer.bounds.origin).threshold, 0.01)
    // The same key path is the same name however often it is asked for.
    expectEqual(LayerProperty<Double>.name(of: \Layer.anchorPoint.x), "anchorPoint.x")
    let again = LayerProperty<Double>.name(of: \Layer.anchorPoint.x)
    expectEqual(LayerProperty<Double>.name(of: \Layer.anchorPoint.x), again)
  }

  /// The issue's case: `\.transform.scale` and `.scaleXY` at once are one key, the second
  /// retargeting the first as Pop does; validate() has nothing to report.
  @Test func aliasesOfOneStateAnimateUnderOneKey() throws {
    var scene = Self.scene()
    scene.pop["card"].add(.spring(to: Point(x: 2, y: 2)), for: \.transform.scale, at: 0)
    scene.pop["card"].add(.spring(to: Point(x: 0.5, y: 0.5)), for: .scaleXY, at: 0.2)
    let keys = try #require(scene.animator?.animatedKeys)
    expectEqual(keys, [AnimationKey(object: "card", key: "scaleXY")])
    try scene.validate()
  }

  /// Two keys of one layer writing one state: the later key hides the earlier one, and
  /// validate() names both.
  @Test func twoKeysOfOneStateAreReported() throws {
    var scene = Self.scene()
    scene.pop["card"].add(.spring(to: Point(x: 2, y: 2)), for: \.transform.scale, forKey: "grow", at: 0)
    scene.pop["card"].add(.tween(to: 0.5, duration: 1), for: .scaleX, at: 0.2)
    do {
      try scene.validate()
      Issue.record("validate() accepted two keys writing scaleXY at once")
    } catch {
      expectEqual(error.call, #"animations of "card" under keys "grow" and "scaleX""#, "\(error)")
      #expect(error.reason.contains("both write scaleXY and scaleX at once"), "\(error)")
      #expect(error.reason.contains("hides the one under \"grow\""), "\(error)")
    }
    // One property under two names of keys, one after the other but the earlier key restarting:
    // its held value would hide nothing, but its restart is hidden.
    var restart = Self.scene()
    restart.pop["card"].add(.tween(to: 0.5, duration: 0.2), for: .opacity, forKey: "fade", at: 0)
    restart.pop["card"].add(.tween(to: 1, duration: 0.2), for: .opacity, at: 0.5)
    restart.pop["card"].add(.tween(to: 0.2, duration: 0.2), for: .opacity, forKey: "fade", at: 1)
    #expect(throws: SceneError.self) { try restart.validate() }
  }

  /// Parts of one whole that do not overlap, and one key after another, are fine.
  @Test func disjointPartsAndHandOversAreFine() throws {
    var scene = Self.scene()
    scene.pop["card"].add(.spring(to: 180), for: .positionX, at: 0)
    scene.pop["card"].add(.spring(to: 40), for: .positionY, at: 0)
    scene.pop["card"].add(.tween(to: 0.5, duration: 0.2), for: .opacity, forKey: "fade", at: 0)
    scene.pop["card"].add(.tween(to: 1, duration: 0.2), for: .opacity, at: 0.5)
    try scene.validate()
  }
}
