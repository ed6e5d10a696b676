/// A value as a function of one number: a piecewise-linear map from increasing input stops to
/// output values, optionally eased between stops, with extrapolation on each side. Remotion's
/// `interpolate` / `interpolateColors`, After Effects' `linear()` and `ease()`, Framer's
/// `useTransform`.
///
/// Between stops `x[i]` and `x[i+1]` the output goes from `y[i]` to `y[i+1]` by the eased
/// fraction `timing[i].progress(at: u)`, `u = (x − x[i]) / (x[i+1] − x[i])`. Outside the stops
/// (``Extrapolation``): `clamp` holds the end value, `extend` continues the end segment's
/// tangent line (for a linear segment exactly Remotion's `extend`; an eased end with zero slope
/// holds), `identity` returns the input itself (numbers only).
///
/// Everything is analytic: ``slope(at:side:)`` is the exact derivative `dy/dx`, one-sided at a
/// stop (the map has a kink there), so a caller can apply the chain rule
/// `dy/dt = slope(x, side) · dx/dt` with the side the input comes from.
///
///     let tilt = try InterpolationMap(input: [280, 680], output: [-0.2, 0.2])
///     tilt.value(at: 480)                 // 0
///     tilt.slope(at: 480, side: .above)   // 0.001 (radians per point)
package struct InterpolationMap<Value: Animatable>: InterpolationMapping {
  /// What the map does beyond its first or last input stop.
  package typealias Extrapolation = InterpolationExtrapolation

  /// The most stops a map may have: each evaluation is a binary search over them.
  package static var maximumStops: Int { 64 }

  /// Input stops, strictly increasing (2 ≤ count ≤ ``maximumStops``).
  package let input: [Double]
  /// Output values, one per input stop.
  package let output: [Value]
  /// The timing curve of each gap between stops (`input.count − 1` of them).
  package let timing: [TimingFunction]
  /// Below the first stop.
  package let extrapolateLeft: Extrapolation
  /// Above the last stop.
  package let extrapolateRight: Extrapolation
  /// The input as a value, for `identity` extrapolation (nil when the value is not a number).
  private let identity: (@Sendable (Double) -> Value)?

  /// A map through `(input[i], output[i])`.
  ///
  /// - Parameters:
  ///   - timing: One curve for every gap, or one per gap (`input.count − 1`); linear by default.
  ///   - identity: How the input becomes a value, needed only for `identity` extrapolation
  ///     (the `Double` initialiser passes it).
  /// - Throws: ``MotionError`` when the stops are fewer than 2 or more than ``maximumStops``,
  ///   not strictly increasing or not finite, when `output` has another length, when `timing`
  ///   has neither 1 nor `input.count − 1` curves, or `identity` is asked for without a way to
  ///   turn the input into a value.
  package init(
    input: [Double], output: [Value], timing: [TimingFunction] = [.linear],
    extrapolateLeft: Extrapolation = .clamp, extrapolateRight: Extrapolation = .clamp,
    identity: (@Sendable (Double) -> Value)? = nil
  ) throws(MotionError) {
    guard input.count >= 2 else { throw MotionError("a map needs at least 2 input stops, found \(input.count)") }
    guard input.count <= Self.maximumStops else {
      throw MotionError("a map has at most \(Self.maximumStops) stops, found \(input.count)")
    }
    guard output.count == input.count else {
      throw MotionError(
        "'output' has \(output.count) values but 'input' has \(input.count) stops; give one output per input")
    }
    for (i, x) in input.enumerated() {
      guard x.isFinite else { throw MotionError("input stop \(i) is not a finite number") }
      if i > 0, !(x > input[i - 1]) {
        throw MotionError(
          "input stops must increase: stop \(i) (\(x)) is not above stop \(i - 1) "
            + "(\(quoted: input[i - 1]))")
      }
    }
    let gaps = input.count - 1
    guard timing.count == 1 || timing.count == gaps else {
      throw MotionError("give one curve for every gap or one per gap (\(escaped: gaps)), found \(timing.count)")
    }
    if identity == nil, extrapolateLeft == .identity || extrapolateRight == .identity {
      throw MotionError("'identity' extrapolation returns the input itself, so it needs a number output")
    }
    self.input = input
    self.output = output
    self.timing = timing.count == gaps ? timing : Array(repeating: timing[0], count: gaps)
    self.extrapolateLeft = extrapolateLeft
    self.extrapolateRight = extrapolateRight
    self.identity = identity
  }

  /// The gap `i` (`input[i] … input[i+1]`) that holds `x` from `side`: the last stop at or
  /// below `x` from above, the last stop below `x` from below. `x` must lie inside the stops.
  private func gap(_ x: Double, _ side: InterpolationSide) -> Int {
    var lo = 0
    var hi = input.count - 1
    // Invariant: the answer lies in lo ..< hi.
    while hi - lo > 1 {
      let mid = (lo + hi) / 2
      if side == .above ? input[mid] <= x : input[mid] < x { lo = mid } else { hi = mid }
    }
    return lo
  }

  private func fraction(_ x: Double, in i: Int) -> Double { (x - input[i]) / (input[i + 1] - input[i]) }

  /// `dy/dx` of gap `i` at fraction `u`.
  private func gapSlope(_ i: Int, at u: Double) -> Value {
    (output[i + 1] - output[i]).scaled(by: timing[i].slope(at: u) / (input[i + 1] - input[i]))
  }

  /// The output at input `x`.
  package func value(at x: Double) -> Value {
    let last = input.count - 1
    if x < input[0] {
      switch extrapolateLeft {
      case .clamp: return output[0]
      case .extend: return output[0] + gapSlope(0, at: 0).scaled(by: x - input[0])
      case .identity: return identity?(x) ?? output[0]
      }
    }
    if x > input[last] {
      switch extrapolateRight {
      case .clamp: return output[last]
      case .extend: return output[last] + gapSlope(last - 1, at: 1).scaled(by: x - input[last])
      case .identity: return identity?(x) ?? output[last]
      }
    }
    if x == input[last] { return output[last] }
    let i = gap(x, .above)
    return output[i].interpolated(to: output[i + 1], amount: timing[i].progress(at: fraction(x, in: i)))
  }

  /// The derivative `dy/dx` at `x`, from `side`: at a stop, the gap (or extrapolation) on that
  /// side of it.
  package func slope(at x: Double, side: InterpolationSide) -> Value {
    let last = input.count - 1
    if x < input[0] || (x == input[0] && side == .below) {
      switch extrapolateLeft {
      case .clamp: return .zero
      case .extend: return gapSlope(0, at: 0)
      case .identity: return identity?(1) ?? .zero
      }
    }
    if x > input[last] || (x == input[last] && side == .above) {
      switch extrapolateRight {
      case .clamp: return .zero
      case .extend: return gapSlope(last - 1, at: 1)
      case .identity: return identity?(1) ?? .zero
      }
    }
    let i = gap(x, side)
    return gapSlope(i, at: fraction(x, in: i))
  }

  /// The input beyond which the output no longer changes (the last stop when the map clamps
  /// there), or infinity.
  package var constantAbove: Double { extrapolateRight == .clamp ? input[input.count - 1] : .infinity }
}

extension InterpolationMap where Value == Double {
  /// A number map; `identity` extrapolation returns the input.
  package init(
    input: [Double], output: [Double], timing: [TimingFunction] = [.linear],
    extrapolateLeft: Extrapolation = .clamp, extrapolateRight: Extrapolation = .clamp
  ) throws(MotionError) {
    try self.init(
      input: input, output: output, timing: timing, extrapolateLeft: extrapolateLeft,
      extrapolateRight: extrapolateRight, identity: { $0 })
  }
}

/// What an ``InterpolationMap`` does beyond its first or last input stop (Remotion's names).
package enum InterpolationExtrapolation: String, Sendable, CaseIterable {
  /// Hold the end value (the default).
  case clamp
  /// Continue the end segment's tangent line.
  case extend
  /// Return the input itself (a number map only).
  case identity
}

/// Which side of an input a one-sided derivative looks at.
package enum InterpolationSide: Sendable, Equatable {
  /// Inputs just below.
  case below
  /// Inputs just above.
  case above

  /// The side an input moving at `rate` comes from (`.left` limit) or goes to (right limit):
  /// just after an instant, an increasing input is above where it was; just before, below.
  package init(rate: Double, leftLimit: Bool) {
    self = (rate > 0) != leftLimit ? .above : .below
  }
}

/// A value as an analytic function of one number, with one-sided derivatives: what a property
/// link applies to its source (``InterpolationMap``, or ``ColorSpaceInterpolationMap`` for
/// colours interpolated in a colour space).
package protocol InterpolationMapping<Value>: Sendable {
  associatedtype Value: Animatable
  /// The output at input `x`.
  func value(at x: Double) -> Value
  /// `dy/dx` at `x` from `side`.
  func slope(at x: Double, side: InterpolationSide) -> Value
  /// The input beyond which the output no longer changes, or infinity.
  var constantAbove: Double { get }
  /// Where the output may turn as the input grows: the stops and their timing functions' turn
  /// points (sorted), and the closest two turns come between them (``CurveTurns/spacing``).
  var turns: (points: [Double], spacing: Double) { get }
}

extension InterpolationMapping {
  package var turns: (points: [Double], spacing: Double) { ([], .infinity) }
}

/// A colour map whose stops interpolate in `space` (Remotion's `interpolateColors`; OKLab keeps
/// blue → green from passing through a dull teal): an ``InterpolationMap`` of the stops'
/// components in `space`, converted back to sRGB, with the conversion's exact derivative.
package struct ColorSpaceInterpolationMap: InterpolationMapping {
  /// The map of the stops' components in ``space``.
  package let components: InterpolationMap<Vector4>
  /// The space colours interpolate in.
  package let space: ColorSpace

  /// A map through `(input[i], output[i])` interpolated in `space` (see ``InterpolationMap``).
  package init(
    input: [Double], output: [Color], timing: [TimingFunction] = [.linear], in space: ColorSpace,
    extrapolateLeft: InterpolationExtrapolation = .clamp, extrapolateRight: InterpolationExtrapolation = .clamp
  ) throws(MotionError) {
    self.space = space
    self.components = try InterpolationMap(
      input: input, output: output.map(space.components(of:)), timing: timing, extrapolateLeft: extrapolateLeft,
      extrapolateRight: extrapolateRight)
  }

  package func value(at x: Double) -> Color { space.color(from: components.value(at: x)) }

  package func slope(at x: Double, side: InterpolationSide) -> Color {
    space.derivative(at: components.value(at: x), along: components.slope(at: x, side: side))
  }

  package var constantAbove: Double { components.constantAbove }
}
