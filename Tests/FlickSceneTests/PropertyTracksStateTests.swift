import FlickMotion
@testable import FlickScene
import FlickExpectations
import Testing

/// `PropertyTracks.state(of:)` reads the segments that apply once for both numbers: exactly what
/// `value(of:)` and `velocity(of:)` give apart, for every name sharing a state (`position`,
/// `positionX`, `positionY`), every side of an instant, and times on and between the segments'
/// begins and ends; and what the curves themselves give where one takes over from another.
@Suite struct PropertyTracksStateTests {
  static func tracks() -> PropertyTracks {
    var card = Layer(id: "card", bounds: Rect(x: 0, y: 0, width: 100, height: 60))
    card.position = Point(x: 40, y: 80)
    var tracks = PropertyTracks(layers: [card, Layer(id: "other")])
    tracks.append(
      .position, layerID: "card",
      curve: AnyAnimationCurve(SpringAnimation(from: Point(x: 40, y: 80), to: Point(x: 300, y: 120))), begin: 0.25)
    tracks.append(
      .positionX, layerID: "card", curve: AnyAnimationCurve(DecayAnimation(from: 300.0, velocity: -900)), begin: 0.8)
    tracks.append(
      .opacity, layerID: "card", curve: AnyAnimationCurve(SpringAnimation(from: 1.0, to: 0.2, velocity: -3)), begin: 1)
    return tracks
  }

  @Test func stateIsValueAndVelocity() {
    let tracks = Self.tracks()
    var times = stride(from: 0.0, through: 3.0, by: 0.013).map { $0 }
    times += [0.25, 0.8, 1, 0.25.nextUp, 0.8.nextDown]
    for t in times {
      for limit in [TrackLimit.right, .left, .handOver] {
        var apart = tracks
        let position = tracks.state(of: .position, layerID: "card", at: t, limit: limit)
        expectEqual(position.value, apart.value(of: .position, layerID: "card", at: t, limit: limit))
        expectEqual(position.velocity, apart.velocity(of: .position, layerID: "card", at: t, limit: limit))
        for property in [LayerProperty<Double>.positionX, .positionY, .opacity] {
          let both = tracks.state(of: property, layerID: "card", at: t, limit: limit)
          expectEqual(both.value, apart.value(of: property, layerID: "card", at: t, limit: limit), "\(t) \(limit)")
          expectEqual(
            both.velocity, apart.velocity(of: property, layerID: "card", at: t, limit: limit), "\(t) \(limit)")
        }
      }
    }
    // Against the curves themselves: the spring moves both axes from 0.25; the decay takes x
    // over at 0.8 (its own start, from the right; the spring's arrival, from the left) and y
    // goes on with the spring.
    let spring = SpringAnimation(from: Point(x: 40, y: 80), to: Point(x: 300, y: 120))
    let decay = DecayAnimation(from: 300.0, velocity: -900)
    #expect(tracks.state(of: .position, layerID: "card", at: 0.2) == (Point(x: 40, y: 80), .zero))
    let arriving = tracks.state(of: .position, layerID: "card", at: 0.8, limit: .left)
    expectEqual(arriving.value, spring.value(at: 0.8 - 0.25))
    expectEqual(arriving.velocity, spring.velocity(at: 0.8 - 0.25))
    let t = 1.5
    let later = tracks.state(of: .position, layerID: "card", at: t)
    expectEqual(later.value, Point(x: decay.value(at: t - 0.8), y: spring.value(at: t - 0.25).y))
    expectEqual(later.velocity, Point(x: decay.velocity(at: t - 0.8), y: spring.velocity(at: t - 0.25).y))
    // A layer nothing animates reads as written, still; an unknown one reads zero.
    expectEqual(tracks.state(of: .opacity, layerID: "other", at: 1).value, 1)
    expectEqual(tracks.state(of: .opacity, layerID: "other", at: 1).velocity, 0)
    #expect(tracks.state(of: .opacity, layerID: "nobody", at: 1) == (0, 0))
  }
}
