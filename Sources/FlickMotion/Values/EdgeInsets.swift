/// Insets from each edge of a rectangle, in points (UIKit's `UIEdgeInsets`; Pop animates them).
package struct EdgeInsets: ComponentwiseAnimatable, Hashable, Codable, CustomStringConvertible {
  /// Inset from the top edge, points.
  package var top: Double
  /// Inset from the left edge, points.
  package var left: Double
  /// Inset from the bottom edge, points.
  package var bottom: Double
  /// Inset from the right edge, points.
  package var right: Double

  package init(top: Double, left: Double, bottom: Double, right: Double) {
    self.top = top
    self.left = left
    self.bottom = bottom
    self.right = right
  }

  package static let zero = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)

  package static func + (a: EdgeInsets, b: EdgeInsets) -> EdgeInsets {
    EdgeInsets(top: a.top + b.top, left: a.left + b.left, bottom: a.bottom + b.bottom, right: a.right + b.right)
  }
  package static func - (a: EdgeInsets, b: EdgeInsets) -> EdgeInsets {
    EdgeInsets(top: a.top - b.top, left: a.left - b.left, bottom: a.bottom - b.bottom, right: a.right - b.right)
  }
  package func scaled(by f: Double) -> EdgeInsets {
    EdgeInsets(top: top * f, left: left * f, bottom: bottom * f, right: right * f)
  }
  package var magnitudeSquared: Double { top * top + left * left + bottom * bottom + right * right }
  package func mapComponents(_ f: (Double) -> Double) -> EdgeInsets {
    EdgeInsets(top: f(top), left: f(left), bottom: f(bottom), right: f(right))
  }
  package static func combineComponents(
    _ a: EdgeInsets, _ b: EdgeInsets, _ c: EdgeInsets, _ f: (Double, Double, Double) -> Double
  ) -> EdgeInsets {
    EdgeInsets(
      top: f(a.top, b.top, c.top), left: f(a.left, b.left, c.left), bottom: f(a.bottom, b.bottom, c.bottom),
      right: f(a.right, b.right, c.right))
  }

  package var description: String { "(top \(top), left \(left), bottom \(bottom), right \(right))" }
}
