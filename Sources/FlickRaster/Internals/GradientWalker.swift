internal import CGradient
import FlickMotion

/// A colour stop as pixman holds it: the position in 16.16 fixed point, 16-bit channels.
struct GradientStop: Hashable {
  var x: Int64
  var red: UInt16
  var green: UInt16
  var blue: UInt16
  var alpha: UInt16
}

/// pixman 0.42's gradient walker (pixman-gradient-walker.c) for the pad extend: the colour of
/// `t` from the two stops around it, in the same float operations in the same order
/// (`flick_gradient_walker`, in C: a radial gradient's table evaluates it 65,537 times, and the
/// tests run a debug build).
final class GradientWalker {
  private let x: UnsafeMutableBufferPointer<Int64>
  /// Alpha, red, green and blue of each stop, one after the other.
  private let channels: UnsafeMutableBufferPointer<UInt16>
  private var walker: flick_gradient_walker

  init(stops: [GradientStop]) {
    // The pad extend's sentinels: the end colours at INT32_MIN and INT32_MAX.
    let all = [stops[0]] + stops + [stops[stops.count - 1]]
    let n = all.count
    x = .allocate(capacity: n)
    _ = x.initialize(from: [Int64(Int32.min)] + stops.map(\.x) + [Int64(Int32.max)])
    channels = .allocate(capacity: 4 * n)
    _ = channels.initialize(from: all.map(\.alpha) + all.map(\.red) + all.map(\.green) + all.map(\.blue))
    let c = channels.baseAddress
    walker = flick_gradient_walker(
      x: x.baseAddress, alpha: c, red: c.map { $0 + n }, green: c.map { $0 + 2 * n }, blue: c.map { $0 + 3 * n },
      count: Int32(stops.count), needs_reset: 1, left_x: 0, right_x: 0, a_s: 0, a_b: 0, r_s: 0, r_b: 0, g_s: 0,
      g_b: 0, b_s: 0, b_b: 0)
  }

  deinit {
    x.deallocate()
    channels.deallocate()
  }

  /// `pixman_gradient_walker_pixel_32`: premultiplied ARGB32.
  func pixel(_ t: Int64) -> UInt32 { flick_gradient_walker_pixel(&walker, t) }

  /// The colours of every `t` in `range`, in order.
  func table(_ range: ClosedRange<Int64>) -> [UInt32] {
    [UInt32](unsafeUninitializedCapacity: Int(range.upperBound - range.lowerBound + 1)) { buffer, count in
      flick_gradient_walker_table(&walker, range.lowerBound, range.upperBound, buffer.baseAddress)
      count = buffer.count
    }
  }
}

extension GradientStop {
  /// The stops as Cairo 1.16 hands them to pixman for stops Flick passes to
  /// `cairo_pattern_add_color_stop_rgba`: each offset and channel clamped to 0...1, each stop
  /// inserted before the first with a larger offset (stable), offsets in 16.16 fixed point and
  /// channels in 16 bits. Nil for fewer than two stops or a value that is not finite.
  ///
  /// Cairo inserts one stop at a time; the same order comes from one stable sort by offset (the
  /// offset, then the position written), in `O(n log n)` rather than an insertion's `O(n²)`.
  static func pixmanStops(_ stops: [(location: Double, color: Color)]) -> [GradientStop]? {
    guard stops.count >= 2 else { return nil }
    var keyed: [(offset: Double, index: Int, stop: GradientStop)] = []
    keyed.reserveCapacity(stops.count)
    for (index, stop) in stops.enumerated() {
      let c = stop.color
      for v in [stop.location, c.red, c.green, c.blue, c.alpha] { guard v.isFinite else { return nil } }
      let offset = CairoDraw.clamp(stop.location)
      let s = GradientStop(
        x: fixed(offset), red: short(c.red), green: short(c.green), blue: short(c.blue), alpha: short(c.alpha))
      keyed.append((offset, index, s))
    }
    keyed.sort { ($0.offset, $0.index) < ($1.offset, $1.index) }
    return keyed.map(\.stop)
  }

  /// Cairo's `_cairo_fixed_16_16_from_double`: round to the nearest 1/65536, ties to even.
  static func fixed(_ d: Double) -> Int64 { Int64((d * 65536).rounded(.toNearestOrEven)) }

  /// Cairo's `_cairo_color_double_to_short` on a clamped channel.
  static func short(_ d: Double) -> UInt16 { UInt16(CairoDraw.clamp(d) * 65535 + 0.5) }
}
