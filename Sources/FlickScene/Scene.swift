import FlickMotion

/// A complete animated composition: the canvas, the layer tree and its animations.
///
/// ``renderTree(at:)`` evaluates every animation at one instant and returns an immutable
/// snapshot; the scene itself is never mutated, so any frame can be produced in any order.
public struct Scene: Sendable {
  /// Canvas size in pixels (1 point = 1 pixel at scale 1).
  public var size: Size
  /// Frames per second of the output; frame `n` is sampled at `n / fps` seconds.
  public private(set) var fps: Int
  /// Length of the composition, in seconds. It also bounds how far ``animator`` replays
  /// completion handlers that keep scheduling (a loop renders at the cost of the frames shown).
  public var duration: Double {
    didSet { boundReplay() }
  }
  /// Colour behind every layer; `.clear` gives a transparent frame.
  public var backgroundColor: Color
  /// Top-level layers, drawn in order.
  public var layers: [Layer]
  /// Animations, applied in order over ``animator`` (a later one on the same property wins).
  public var animations: [LayerAnimation]
  /// Font files (absolute paths to .ttf, .otf or .ttc files) the text layers need; the
  /// rasteriser registers them with fontconfig before laying out text, so their families can
  /// be named in `fontFamily` like installed ones.
  public var fontFiles: [String]
  /// The camera shutter, or nil for none (every frame one instant). See ``MotionBlur``.
  public var motionBlur: MotionBlur? = nil
  /// A FlickMotion ``FlickMotion/Animator`` driving layers by id (its model is a ``LayerTree``
  /// of this scene's layers): ``renderTree(at:)`` samples it once per frame, then applies
  /// ``animations`` on top. Pop's `addAnimation:forKey:`, springs that retarget, chains and
  /// completion-driven scheduling, all as a pure function of time.
  public var animator: Animator<LayerTree>? {
    didSet {
      boundReplay()
      // Within its own observer: the assignment does not call it again.
      if !motion.isEmpty || animator?.outsideHandover != nil {
        let handover = outsideHandover
        animator?.outsideHandover = handover
      }
    }
  }
  /// UIKit-style animators over the layer tree and the scene-building problems (see
  /// ``SceneMotion``). On each property, the animation started last shows: a property animator's
  /// animation over what ``animator`` and ``animations`` started before it, and those over a
  /// property animator's animation they started after (``layPropertyAnimators(over:at:adding:)``).
  public var motion = SceneMotion() {
    didSet {
      if !motion.isEmpty || animator?.outsideHandover != nil {
        let handover = outsideHandover
        animator?.outsideHandover = handover
      }
    }
  }

  public init(
    size: Size, fps: Int = 60, duration: Double, backgroundColor: Color = .white,
    layers: [Layer] = [], animations: [LayerAnimation] = [], fontFiles: [String] = []
  ) {
    self.size = size
    self.fps = fps
    self.duration = duration
    self.backgroundColor = backgroundColor
    self.layers = layers
    self.animations = animations
    self.fontFiles = fontFiles
  }

  /// Number of frames: `ceil(duration × fps)` (a frame at exactly `duration` is not included);
  /// 1 for a duration or fps ``validate()`` refuses (``frameCount(duration:fps:)``).
  public var frameCount: Int { Self.frameCount(duration: duration, fps: fps) }

  /// The frames per second a scene may have: 1…1000 (`flick render --fps` takes 1…240; a Lottie
  /// file's frame rate goes up to 1000).
  public static let fpsRange = 1...1000
  /// The most frames (`duration × fps`) a scene may span, 10⁹; a render is capped far lower by
  /// its ``FlickVideo/RenderLimits`` (`--max-frames`, 216,000 by default).
  public static let maximumFrames = 1_000_000_000

  /// Number of frames of a scene of `duration` seconds at `fps`: `ceil(duration × fps)`, at
  /// least 1; 1 when the duration is not a finite number above 0, `fps` is outside ``fpsRange``
  /// or `duration × fps` exceeds ``maximumFrames`` (what ``validate()`` refuses). Every frame
  /// count of a scene (``frameCount``, snapshot times, motion goldens) is this one formula.
  public static func frameCount(duration: Double, fps: Int) -> Int {
    guard timingProblem(duration: duration, fps: fps) == nil else { return 1 }
    return max(1, Int((duration * Double(fps) - 1e-9).rounded(.up)))
  }

  /// Why a scene of `duration` seconds at `fps` cannot be rendered, or nil.
  static func timingProblem(duration: Double, fps: Int) -> String? {
    guard fpsRange.contains(fps) else {
      return "fps must be \(fpsRange.lowerBound)…\(fpsRange.upperBound) frames per second, found \(fps)"
    }
    guard duration.isFinite, duration > 0 else {
      return "duration must be a finite number of seconds above 0, found \(duration)"
    }
    guard duration * Double(fps) <= Double(maximumFrames) else {
      return "duration \(duration) s at \(fps) fps spans more than \(maximumFrames) frames"
    }
    return nil
  }

  /// Why the canvas `size` cannot be drawn (a side that is not a finite number above 0), or nil.
  static func sizeProblem(_ size: Size) -> String? {
    guard size.width.isFinite, size.height.isFinite, size.width > 0, size.height > 0 else {
      return "size must have finite sides above 0 points, found \(size.width) × \(size.height)"
    }
    return nil
  }

  /// Scene time of frame `index`, in seconds: exactly `index / fps`.
  public func time(ofFrame index: Int) -> Double {
    Double(index) / Double(fps)
  }

  /// The scene at time `t` (seconds) as an immutable snapshot. When ``validate()`` refuses the
  /// scene, the snapshot carries its error (``RenderTree/problem``) and the renderer refuses it.
  public func renderTree(at t: Double) -> RenderTree {
    var tree = shuttered(instantTree(at: t), at: t)
    do { try validate() } catch { tree.problem = error }
    return tree
  }

  /// Completion-driven scheduling on ``animator`` is replayed only as far as the scene lasts.
  private mutating func boundReplay() {
    let length = duration
    guard var bounded = animator, bounded.replayBound != length else { return }
    bounded.replayBound = length
    animator = bounded
  }

  /// The snapshot at `t`, one instant (no shutter), without the validity check.
  func instantTree(at t: Double) -> RenderTree {
    var work = 0
    return instantTree(at: t, work: &work)
  }

  /// The top-level layers at `t` with every animation applied (``animator``, ``animations``,
  /// the property animators and `propertyAnimator` among them), before replicators are
  /// expanded: what a property animator made now takes over from
  /// (``makePropertyAnimator(duration:timingParameters:)``).
  func animatedLayers(at t: Double, adding propertyAnimator: PropertyAnimator<LayerTree>? = nil) -> [Layer] {
    var work = 0
    var roots = animator.map { $0.sample(at: t).layers } ?? layers
    AnimationIndex(animations).apply(to: &roots, at: t, work: &work)
    return layPropertyAnimators(over: roots, at: t, adding: propertyAnimator)
  }

  /// ``instantTree(at:)``, adding to `work` the layers visited and the animations applied (one
  /// walk of the tree for all the animations, one per replicator copy for its subtree's).
  func instantTree(at t: Double, work: inout Int) -> RenderTree {
    // One pass over the animator's animations for the whole tree, not one per animation.
    var roots = animator.map { $0.sample(at: t).layers } ?? layers
    let index = AnimationIndex(animations)
    index.apply(to: &roots, at: t, work: &work)
    roots = layPropertyAnimators(over: roots, at: t)
    expandReplicators(&roots, base: layers, animations: index, at: t, work: &work)
    return RenderTree(size: size, backgroundColor: backgroundColor, layers: roots, time: t, fontFiles: fontFiles)
  }
}
