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
  /// Animations, applied in order (a later one on the same property wins).
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
    didSet { boundReplay() }
  }
  /// UIKit-style animators over the layer tree and the scene-building problems (see
  /// ``SceneMotion``), laid over ``animator`` and ``animations`` at every frame.
  public var motion = SceneMotion()

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

  /// Number of frames: `ceil(duration × fps)` (a frame at exactly `duration` is not included).
  public var frameCount: Int {
    max(1, Int((duration * Double(fps) - 1e-9).rounded(.up)))
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

  /// ``instantTree(at:)``, adding to `work` the layers visited and the animations applied (one
  /// walk of the tree for all the animations, one per replicator copy for its subtree's).
  func instantTree(at t: Double, work: inout Int) -> RenderTree {
    // One pass over the animator's animations for the whole tree, not one per animation.
    var roots = animator.map { $0.sample(at: t).layers } ?? layers
    let index = AnimationIndex(animations)
    index.apply(to: &roots, at: t, work: &work)
    roots = motion.apply(to: roots, at: t)
    expandReplicators(&roots, base: layers, animations: index, at: t, work: &work)
    return RenderTree(size: size, backgroundColor: backgroundColor, layers: roots, time: t, fontFiles: fontFiles)
  }
}
