import FlickScene
import Foundation

/// The colour of each kind of segment on the studio's timeline (``FlickScene/TrackSegmentOutline/kind``),
/// the one place the page's legend and segment colours come from: `/api/template` lists the
/// kinds its tracks use with their colours, so a kind added to the motion code (a new curve's
/// `kindName`) shows, coloured and in the legend, without touching the page.
enum SegmentKindColor {
  /// Colours picked for the kinds known when this was written (distinct on the dark timeline).
  static let chosen: [String: String] = [
    "spring": "#4f9dff", "decay": "#f59e0b", "tween": "#a78bfa", "keyframes": "#22c55e", "drag": "#f472b6",
    "release": "#fb7185", "animator": "#2dd4bf", "link": "#94a3b8", "set": "#64748b", "custom": "#e879f9",
    "curve": "#9ca3af",
  ]

  /// `#RRGGBB` for `kind`: the chosen colour, or one derived from the name (a hue from its
  /// FNV-1a hash, at the lightness and saturation of the chosen ones), the same at every start.
  static func color(for kind: String) -> String {
    if let known = chosen[kind] { return known }
    var hash: UInt32 = 2_166_136_261
    for byte in kind.utf8 {
      hash ^= UInt32(byte)
      hash = hash &* 16_777_619
    }
    return hex(hue: Double(hash % 360), saturation: 0.75, lightness: 0.62)
  }

  /// The kinds `tracks` use, each with its colour, in the order of ``chosen``'s well-known
  /// kinds first (by name), then the others by name.
  static func legend(_ tracks: [TrackOutline]) -> [TemplateState.Kind] {
    let used = Set(tracks.flatMap { $0.segments.map(\.kind) })
    return used.sorted { a, b in
      let (ka, kb) = (chosen[a] != nil, chosen[b] != nil)
      return ka != kb ? ka : a < b
    }.map { TemplateState.Kind(name: $0, color: color(for: $0)) }
  }

  /// An HSL colour as `#RRGGBB` (hue in degrees, saturation and lightness in 0…1).
  static func hex(hue: Double, saturation: Double, lightness: Double) -> String {
    let c = (1 - abs(2 * lightness - 1)) * saturation
    let h = hue / 60
    let x = c * (1 - abs(h.truncatingRemainder(dividingBy: 2) - 1))
    let (r, g, b): (Double, Double, Double) =
      switch Int(h) {
      case 0: (c, x, 0)
      case 1: (x, c, 0)
      case 2: (0, c, x)
      case 3: (0, x, c)
      case 4: (x, 0, c)
      default: (c, 0, x)
      }
    let m = lightness - c / 2
    let channels = [r, g, b].map { Int((($0 + m) * 255).rounded()) }
    return "#" + channels.map { String(format: "%02x", min(255, max(0, $0))) }.joined()
  }
}
