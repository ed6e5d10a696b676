import FlickMotion

/// One sample of a traced property: its value and velocity as components (a number has one,
/// a point two, a rect four, a colour four, a colour list four per stop).
package struct TraceSample: Sendable, Equatable {
  /// Scene time, seconds.
  package var time: Double
  /// The value's components, in the property's units.
  package var value: [Double]
  /// The velocity's components, in units per second.
  package var velocity: [Double]
}

extension PropertyTracks {
  /// The value and velocity of `property` on `layerID` at each of `times` (scene seconds), read
  /// from `limit`: what `flick trace` prints.
  package mutating func trace(
    _ property: AnyLayerProperty, layerID: String, at times: [Double], limit: TrackLimit = .right
  ) -> [TraceSample] {
    switch property {
    case .double(let p): trace(p, layerID: layerID, times, limit) { [$0] }
    case .point(let p): trace(p, layerID: layerID, times, limit) { [$0.x, $0.y] }
    case .size(let p): trace(p, layerID: layerID, times, limit) { [$0.width, $0.height] }
    case .rect(let p):
      trace(p, layerID: layerID, times, limit) { [$0.origin.x, $0.origin.y, $0.size.width, $0.size.height] }
    case .color(let p): trace(p, layerID: layerID, times, limit) { [$0.red, $0.green, $0.blue, $0.alpha] }
    case .colors(let p):
      trace(p, layerID: layerID, times, limit) { $0.colors.flatMap { [$0.red, $0.green, $0.blue, $0.alpha] } }
    }
  }

  private mutating func trace<V: Animatable>(
    _ p: LayerProperty<V>, layerID: String, _ times: [Double], _ limit: TrackLimit, _ components: (V) -> [Double]
  ) -> [TraceSample] {
    times.map { t in
      TraceSample(
        time: t, value: components(value(of: p, layerID: layerID, at: t, limit: limit)),
        velocity: components(velocity(of: p, layerID: layerID, at: t, limit: limit)))
    }
  }
}

extension AnyLayerProperty {
  /// Names of the value's components, as `flick trace` labels them (`[]` for a number, which
  /// has one unnamed component; a colour list repeats `red, green, blue, alpha` per stop).
  package var componentNames: [String] {
    switch self {
    case .double: []
    case .point: ["x", "y"]
    case .size: ["width", "height"]
    case .rect: ["x", "y", "width", "height"]
    case .color, .colors: ["red", "green", "blue", "alpha"]
    }
  }
}
