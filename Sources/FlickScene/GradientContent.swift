import FlickMotion

/// What a gradient layer draws: colour stops spread over the bounds, as `CAGradientLayer`.
///
/// Points are in unit coordinates of the bounds (`(0, 0)` top-left, `(1, 1)` bottom-right).
/// `axial` runs from `startPoint` to `endPoint`; `radial` is centred on `startPoint` and
/// reaches `endPoint` (an ellipse whose radii are the x and y distances, as Core Animation's);
/// `conic` sweeps clockwise around `startPoint`, beginning in the direction of `endPoint`.
///
/// A degenerate gradient (`endPoint` equal to `startPoint`, or a radial one with a radius of 0)
/// still fills its bounds: axial with Cairo's average of its colours, radial with its last
/// colour (its empty ellipse leaves every point past the end: what it tends to as the radius
/// shrinks), and conic sweeps from 12 o'clock.
public struct GradientContent: Sendable, Hashable {
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    case axial, radial, conic
  }

  public var kind: Kind
  /// The stop colours, at least one.
  public var colors: ColorList
  /// The stops' positions, `0…1`, increasing; `nil` spreads the colours evenly.
  public var locations: [Double]?
  public var startPoint: Point
  public var endPoint: Point

  public init(
    kind: Kind = .axial, colors: [Color], locations: [Double]? = nil,
    startPoint: Point = Point(x: 0.5, y: 0), endPoint: Point = Point(x: 0.5, y: 1)
  ) {
    self.kind = kind
    self.colors = ColorList(colors)
    self.locations = locations
    self.startPoint = startPoint
    self.endPoint = endPoint
  }

  /// Each colour with its location (evenly spaced when `locations` is nil or has a different count).
  public var stops: [(location: Double, color: Color)] {
    let colors = self.colors.colors
    guard colors.count > 1 else { return colors.map { (0, $0) } }
    if let locations, locations.count == colors.count {
      return zip(locations, colors).map { (min(max($0, 0), 1), $1) }
    }
    return colors.enumerated().map { (Double($0) / Double(colors.count - 1), $1) }
  }
}
