import FlickMotion

/// A colour animation from `from` to `to` that keeps the timing of `base` (any tween, spring or
/// timing-curve animation of the colour made in sRGB components) but travels through `space`:
/// the progress `p(t)` of `base` along the straight sRGB line from `from` to `to` is read back
/// (exactly, since such curves move every component by the same fraction) and applied to the
/// two colours' components in `space` (Core Animation and Pop blend sRGB; OKLab keeps blue →
/// green from passing through a dull teal). Overshoot (a bouncy spring, `backOut`) overshoots
/// in `space` too. Velocity is the sRGB velocity of that path, so a join stays continuous.
///
/// This is the hook for `colorSpace` (`"sRGB" | "linear" | "oklab"`, per animation and as a
/// template default): the timeline compiler wraps the curve it built for a colour property.
struct ColorSpaceCurve: AnimationCurve {
  let base: AnyAnimationCurve<Color>
  let space: ColorSpace
  let from: Color
  let to: Color
  private let a: Vector4
  private let b: Vector4
  private let axis: Color
  private let length2: Double

  init(_ base: AnyAnimationCurve<Color>, from: Color, to: Color, in space: ColorSpace) {
    self.base = base
    self.space = space
    self.from = from
    self.to = to
    self.a = space.components(of: from)
    self.b = space.components(of: to)
    self.axis = to - from
    self.length2 = axis.magnitudeSquared
  }

  var duration: Double { base.duration }
  func isApplied(at t: Double) -> Bool { base.isApplied(at: t) }

  private func dot(_ c: Color) -> Double {
    c.red * axis.red + c.green * axis.green + c.blue * axis.blue + c.alpha * axis.alpha
  }

  /// The fraction of the way from `from` to `to` that `base` has reached at `t`.
  func progress(at t: Double) -> Double { dot(base.value(at: t) - from) / length2 }

  func color(atProgress p: Double) -> Color { space.color(from: a + (b - a).scaled(by: p)) }

  func value(at t: Double) -> Color {
    guard space != .sRGB, length2 > 0 else { return base.value(at: t) }
    return color(atProgress: progress(at: t))
  }

  func velocity(at t: Double) -> Color {
    guard space != .sRGB, length2 > 0 else { return base.velocity(at: t) }
    let dp = dot(base.velocity(at: t)) / length2
    guard dp != 0 else { return .zero }
    let p = progress(at: t), h = 1e-6
    return (color(atProgress: p + h) - color(atProgress: p - h)).scaled(by: dp / (2 * h))
  }
}

extension ColorSpace {
  /// The name a template writes (`"sRGB"`, `"linear"`, `"oklab"`).
  var templateName: String {
    switch self {
    case .sRGB: "sRGB"
    case .linearSRGB: "linear"
    case .oklab: "oklab"
    }
  }
}

extension TemplateNode {
  /// A colour space: `"sRGB"`, `"linear"` (linear-light sRGB) or `"oklab"`.
  func colorSpace() throws(TemplateError) -> ColorSpace {
    switch try string(oneOf: ["sRGB", "linear", "oklab"]) {
    case "linear": .linearSRGB
    case "oklab": .oklab
    default: .sRGB
    }
  }
}
