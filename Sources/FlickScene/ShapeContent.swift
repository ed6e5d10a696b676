import FlickMotion

/// What a shape layer draws: a path filled and stroked, as `CAShapeLayer`.
///
/// The path is in the layer's own coordinates (points). Like Core Animation, the default fill
/// is opaque black and there is no stroke.
public struct ShapeContent: Sendable, Hashable {
  /// How a stroke's open ends are drawn.
  public enum LineCap: String, Sendable, Hashable, CaseIterable {
    case butt, round, square
  }

  /// How corners between stroked segments are drawn.
  public enum LineJoin: String, Sendable, Hashable, CaseIterable {
    case miter, round, bevel
  }

  /// Which regions of a self-intersecting path are inside.
  public enum FillRule: String, Sendable, Hashable, CaseIterable {
    case nonZero, evenOdd
  }

  /// The outline, in the layer's coordinates.
  public var path: ShapePath
  /// Fill colour; `.clear` fills nothing.
  public var fillColor: Color
  /// Stroke colour; `.clear` strokes nothing.
  public var strokeColor: Color
  /// Stroke width in points (≥ 0).
  public var lineWidth: Double
  public var lineCap: LineCap
  public var lineJoin: LineJoin
  /// Limit on the ratio of miter length to line width before a miter join is bevelled.
  public var miterLimit: Double
  /// Alternating dash and gap lengths in points; empty draws a solid line.
  public var lineDashPattern: [Double]
  /// Offset into the dash pattern at the start of the path, in points.
  public var lineDashPhase: Double
  /// Fraction of the path's length where the stroke starts, `0…1`.
  public var strokeStart: Double
  /// Fraction of the path's length where the stroke ends, `0…1` (a progress ring's progress).
  public var strokeEnd: Double
  public var fillRule: FillRule

  public init(
    path: ShapePath, fillColor: Color = .black, strokeColor: Color = .clear, lineWidth: Double = 1,
    lineCap: LineCap = .butt, lineJoin: LineJoin = .miter, miterLimit: Double = 10,
    lineDashPattern: [Double] = [], lineDashPhase: Double = 0, strokeStart: Double = 0,
    strokeEnd: Double = 1, fillRule: FillRule = .nonZero
  ) {
    self.path = path
    self.fillColor = fillColor
    self.strokeColor = strokeColor
    self.lineWidth = lineWidth
    self.lineCap = lineCap
    self.lineJoin = lineJoin
    self.miterLimit = miterLimit
    self.lineDashPattern = lineDashPattern
    self.lineDashPhase = lineDashPhase
    self.strokeStart = strokeStart
    self.strokeEnd = strokeEnd
    self.fillRule = fillRule
  }
}
