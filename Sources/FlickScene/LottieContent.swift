import FlickMotion

/// A Lottie animation (a bodymovin JSON file) drawn into the layer, one whole frame at a time.
///
/// The animation is scaled into the layer's bounds following `contentsGravity` (the default,
/// `resize`, stretches it to the bounds). Which frame shows is ``frame``, a number of the
/// animation's own frames counted from its in point: animate it (or ``progress``, its
/// `0…1` view) with any tween, spring or timeline like every other property.
///
/// rlottie draws whole frames only, so a fractional frame shows the whole frame below it
/// (a frame shows from its instant until the next one's, as in a player).
public struct LottieContent: Sendable, Hashable {
  /// The Lottie file (absolute, or relative to the working directory).
  public var path: String
  /// The composition's size in points (`w`, `h`), placed in the bounds by `contentsGravity`.
  public var size: Size
  /// The animation's frames (`op − ip`, at least 1).
  public var frameCount: Int
  /// Which frame shows, counted from the in point; fractions are rounded down.
  public var frame: Double
  /// Frames per second of the file (`fr`).
  public var frameRate: Double
  /// How fast the layer plays by itself, from ``beginTime`` on: 1 is the file's own rate, 2
  /// twice as fast, −1 backwards; 0 (the default) shows ``frame`` until an animation moves it.
  /// See ``clock(layerID:)``.
  public var speed: Double
  /// Scene time at which the layer starts playing by itself, in seconds.
  public var beginTime: Double
  /// Whether frames past the end wrap around to the start (a looping player); when false the
  /// last frame holds (and frames before 0 show frame 0).
  public var loops: Bool

  public init(
    path: String, size: Size, frameCount: Int, frameRate: Double, frame: Double = 0, loops: Bool = false,
    speed: Double = 0, beginTime: Double = 0
  ) {
    self.path = path
    self.size = size
    self.frameCount = max(1, frameCount)
    self.frameRate = frameRate
    self.frame = frame
    self.loops = loops
    self.speed = speed
    self.beginTime = beginTime
  }

  /// The animation that plays the layer by itself: from ``beginTime`` its frame advances from
  /// ``frame`` at `frameRate × speed` frames per second (nil when `speed` is 0). Its duration is
  /// one pass through the file; it keeps running after that (a looping layer wraps, another
  /// holds its last frame). An animation of `frame` or `progress` placed after it wins.
  public func clock(layerID: String) -> LayerAnimation? {
    guard speed != 0, speed.isFinite, frameRate > 0 else { return nil }
    let start = frame
    let rate = frameRate * speed
    return LayerAnimation(
      layerID: layerID, property: .lottieFrame, beginTime: beginTime,
      duration: Double(frameCount) / abs(rate), value: { start + $0 * rate })
  }

  /// The position in the animation, `0…1`: 0 is the first frame, 1 the last
  /// (`frame / (frameCount − 1)`, as rlottie's `lottie_animation_get_frame_at_pos`).
  public var progress: Double {
    get { frameCount > 1 ? frame / Double(frameCount - 1) : 0 }
    set { frame = newValue * Double(max(0, frameCount - 1)) }
  }

  /// The whole frame drawn, `0..<frameCount`.
  public var frameIndex: Int {
    guard frame.isFinite else { return 0 }
    // A hair of tolerance: frame n of a render at the file's own rate is n·(1/fps)·fps, which
    // may come out a rounding error below n.
    let whole = (frame + 1e-6).rounded(.down)
    if loops {
      let n = Double(frameCount)
      let wrapped = whole - (whole / n).rounded(.down) * n
      return min(frameCount - 1, max(0, Int(wrapped)))
    }
    return Int(min(Double(frameCount - 1), max(0, whole)))
  }
}
