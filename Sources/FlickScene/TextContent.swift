import FlickMotion

/// What a text layer draws: a string laid out by Pango inside the layer's bounds, starting at
/// the top-left, as `CATextLayer`.
///
/// The font family must be installed (`fc-list`): the rasteriser reports a missing family as
/// an error naming the family it would have substituted, never silently.
public struct TextContent: Sendable, Hashable {
  /// Font weight on the CSS/OpenType scale.
  public enum FontWeight: Int, Sendable, Hashable, CaseIterable {
    case thin = 100, extraLight = 200, light = 300, regular = 400, medium = 500
    case semibold = 600, bold = 700, heavy = 800, black = 900
  }

  public enum FontStyle: String, Sendable, Hashable, CaseIterable {
    case normal, italic, oblique
  }

  /// Horizontal alignment of each line inside the bounds' width.
  public enum Alignment: String, Sendable, Hashable, CaseIterable {
    case left, center, right, justified
  }

  /// Where an ellipsis replaces text that does not fit (`CATextLayer.truncationMode`).
  public enum TruncationMode: String, Sendable, Hashable, CaseIterable {
    case none, start, middle, end
  }

  /// The text (Unicode; `\n` breaks lines).
  public var string: String
  /// A font family name as `fc-list` reports it (`"Inter"`), or a generic `sans-serif`,
  /// `serif` or `monospace`.
  public var fontFamily: String
  /// Font size in points (> 0).
  public var fontSize: Double
  public var fontWeight: FontWeight
  public var fontStyle: FontStyle
  public var textColor: Color
  public var alignment: Alignment
  /// Whether lines wrap at the bounds' width (`CATextLayer.isWrapped`); otherwise each
  /// paragraph stays on one line.
  public var isWrapped: Bool
  /// Extra space between lines, in points (may be negative).
  public var lineSpacing: Double
  /// Extra space after every character, in points (may be negative): SwiftUI's `tracking(_:)`,
  /// `NSAttributedString.Key.kern` and Figma's letter spacing in points.
  public var tracking: Double
  /// How text that does not fit the bounds is cut: with wrapping, lines below the bounds'
  /// height are dropped and the last visible one ends in an ellipsis; without, a long line is
  /// ellipsised at the bounds' width.
  public var truncationMode: TruncationMode

  public init(
    string: String, fontFamily: String = "Inter", fontSize: Double = 17,
    fontWeight: FontWeight = .regular, fontStyle: FontStyle = .normal, textColor: Color = .black,
    alignment: Alignment = .left, isWrapped: Bool = true, lineSpacing: Double = 0,
    truncationMode: TruncationMode = .none, tracking: Double = 0
  ) {
    self.string = string
    self.fontFamily = fontFamily
    self.fontSize = fontSize
    self.fontWeight = fontWeight
    self.fontStyle = fontStyle
    self.textColor = textColor
    self.alignment = alignment
    self.isWrapped = isWrapped
    self.lineSpacing = lineSpacing
    self.truncationMode = truncationMode
    self.tracking = tracking
  }
}
