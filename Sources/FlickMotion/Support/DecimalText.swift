import Foundation

/// Numbers as reports and labels show them to people: `3`, `0.25`, `1.333`. One formatter for
/// `flick info` (and `flick lottie info`), the studio's timeline labels, `flick curve`'s axes and
/// the sizes `flick render` reports, so that none writes a bare trailing point (`3.`) or `-0`.
package enum DecimalText {
  /// `v` rounded to at most `decimals` decimals, without trailing zeros or a trailing point:
  /// `3`, `0.25`, `1.333`; a value that rounds to a whole number (1.9999 at 3 decimals) is
  /// written as one (`2`), and one that rounds to zero as `0`, never `-0`. Infinity and NaN are
  /// `inf`, `-inf` and `nan`.
  package static func format(_ v: Double, decimals: Int = 3) -> String {
    if v == v.rounded() && abs(v) < 1e15 { return String(Int(v)) }
    var s = String(format: "%.\(max(0, decimals))f", v)
    guard v.isFinite else { return s }
    if s.contains(".") {
      while s.hasSuffix("0") { s.removeLast() }
      if s.hasSuffix(".") { s.removeLast() }
    }
    return s == "-0" ? "0" : s
  }
}
