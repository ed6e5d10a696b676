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

    /// The case's name (`thin` … `black`), as templates write it; spelled out rather than
    /// interpolated, which reflects on the value (about 0.4 M instructions for the first).
    package var name: String {
      switch self {
      case .thin: "thin"
      case .extraLight: "extraLight"
      case .light: "light"
      case .regular: "regular"
      case .medium: "medium"
      case .semibold: "semibold"
      case .bold: "bold"
      case .heavy: "heavy"
      case .black: "black"
      }
    }
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
  /// The number the text shows through ``numberFormat`` (the animatable `number`), or nil
  /// when ``string`` is written directly. Setting it with ``show(number:)`` rewrites
  /// ``string``; the string is what draws, so the number and its format take no part in equality or hashing
  /// (two contents that draw the same text are equal, and the raster's layout cache keys on the
  /// final string: a spring from 3 to 4 lays out "3" and "4" once each).
  public var number: Double?
  /// How ``number`` becomes ``string`` (default `%.0f`).
  public var numberFormat: TextNumberFormat?
  /// The text change playing, if any (``TextTransition``): drawn while it is active for
  /// ``string``; it takes part in equality (it changes what is drawn).
  public var transition: TextTransition?

  /// Shows `value` through ``numberFormat`` (or `%.0f`): sets ``number`` and ``string``.
  public mutating func show(number value: Double) {
    number = value
    string = (numberFormat ?? .integer).string(for: value)
  }

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

extension TextContent {
  /// Equal when the two draw the same: every field but ``number`` and ``numberFormat`` (whose
  /// effect is ``string``), the ``transition`` included.
  public static func == (a: TextContent, b: TextContent) -> Bool {
    a.string == b.string && a.fontFamily == b.fontFamily && a.fontSize == b.fontSize && a.fontWeight == b.fontWeight
      && a.fontStyle == b.fontStyle && a.textColor == b.textColor && a.alignment == b.alignment
      && a.isWrapped == b.isWrapped && a.lineSpacing == b.lineSpacing && a.tracking == b.tracking
      && a.truncationMode == b.truncationMode && a.transition == b.transition
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(string)
    hasher.combine(fontFamily)
    hasher.combine(fontSize)
    hasher.combine(fontWeight)
    hasher.combine(fontStyle)
    hasher.combine(textColor)
    hasher.combine(alignment)
    hasher.combine(isWrapped)
    hasher.combine(lineSpacing)
    hasher.combine(tracking)
    hasher.combine(truncationMode)
    hasher.combine(transition)
  }
}
