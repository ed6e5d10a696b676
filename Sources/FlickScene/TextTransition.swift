import FlickMotion

/// A text change playing as SwiftUI's numeric content transition
/// (`.contentTransition(.numericText())`): from ``from`` to ``to`` (the text layer's
/// ``TextContent/string`` once it has changed), at ``progress``.
///
/// The characters the two strings share at their start and at their end stay and move from
/// their old place to their new one (the layout's advances interpolate when the widths differ);
/// the characters between change. With ``Kind/roll`` the old ones slide out vertically and fade
/// while the new ones slide in from the other side, upwards (new from below) unless
/// ``countsDown`` (new from above, old leaving downwards), by 0.8 of the line height, with a
/// scale from 1 to 0.85 on the way out and 0.85 to 1 on the way in (the old ones are gone at
/// progress 2/3, the new ones appear from 1/3); with ``Kind/fade`` they cross-fade in place.
/// Progress 0 draws ``from`` as it was laid out, 1 (or more) draws the string as any text; a spring's overshoot moves the glyphs past their place and back.
public struct TextTransition: Sendable, Hashable {
  /// How changed characters go and come.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// Slide vertically and fade (an odometer, iOS's numeric text).
    case roll
    /// Cross-fade in place.
    case fade
  }

  /// The text before the change.
  public var from: String
  /// The text after the change; the transition draws only while the layer shows it.
  public var to: String
  public var kind: Kind
  /// Whether the new characters come from above (a number going down).
  public var countsDown: Bool
  /// `0` (the old text) to `1` (the new one); may overshoot either way under a spring.
  public var progress: Double

  public init(from: String, to: String, kind: Kind, countsDown: Bool = false, progress: Double = 0) {
    self.from = from
    self.to = to
    self.kind = kind
    self.countsDown = countsDown
    self.progress = progress
  }

  /// Whether it still draws differently from the plain text `string`.
  public func isActive(showing string: String) -> Bool {
    progress < 1 && to == string && from != to
  }

  /// The characters of `from` and `to` as three parts each: the shared start, the changed
  /// middle and the shared end (grapheme clusters; the shared end never overlaps the start).
  public var parts: (prefix: Int, oldMiddle: Int, newMiddle: Int, suffix: Int) {
    let a = Array(from), b = Array(to)
    var prefix = 0
    while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] {
      suffix += 1
    }
    return (prefix, a.count - prefix - suffix, b.count - prefix - suffix, suffix)
  }

  /// Whether a number going from `old` to `new` counts down (new < old).
  public static func countsDown(from old: Double, to new: Double) -> Bool { new < old }

  /// The number a string shows, for the direction of a change of strings: its digits with one
  /// decimal point and a leading minus sign, other characters ignored (`"1,234"` is 1234,
  /// `"3:05"` 305); nil without digits.
  public static func numericValue(of s: String) -> Double? {
    var digits = ""
    var negative = false
    for c in s {
      if c.isASCII, c.isNumber {
        digits.append(c)
      } else if c == ".", !digits.contains(".") {
        digits.append(c)
      } else if c == "-" || c == "−", digits.isEmpty {
        negative = true
      }
    }
    guard digits.contains(where: \.isNumber), let v = Double(digits) else { return nil }
    return negative ? -v : v
  }
}

extension LayerProperty where Value == Double {
  /// `transitionProgress` of a text layer: how far its latest text transition has played, `0…1`
  /// (``TextTransition/progress``); reads 1 when the layer has none. Animating it scrubs the
  /// transition the layer has (on a layer without one it is kept in a transition from the text
  /// to itself, which draws the text as it is); a `set` of `string` or `number` with a
  /// `transition` animates it through ``textTransition(_:)``.
  public static let transitionProgress = LayerProperty(
    name: "transitionProgress", threshold: 0.001, read: { $0.text?.transition?.progress ?? 1 },
    write: { l, v in
      l.withText { t in
        if t.transition == nil { t.transition = TextTransition(from: t.string, to: t.string, kind: .fade) }
        t.transition?.progress = v
      }
    })

  /// The progress of `transition` (its own from and to strings, kind and direction), under the
  /// name ``transitionProgress``: each text change carries its own, as
  /// ``string(choosingFrom:)`` carries its strings.
  public static func textTransition(_ transition: TextTransition) -> LayerProperty<Double> {
    LayerProperty(
      name: "transitionProgress", threshold: 0.001, read: { $0.text?.transition?.progress ?? 1 },
      write: { l, v in
        var t = transition
        t.progress = v
        l.withText { $0.transition = t }
      })
  }
}
