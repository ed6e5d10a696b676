import FlickMotion
import FlickScene
import Foundation

/// A renderer for one worker that keeps what does not change between consecutive frames:
/// a frame is redrawn only inside pixel-aligned boxes around the layers that differ from the
/// frame it drew last, the rest copied from that frame (``reusesPreviousFrame``);
/// a frame drawn whole whose background and first layers (in painter's order) are those of the frame before
/// starts from a copy of their pixels, translucent or masked layers that do not change are
/// composited from their kept pixels, gradients whose geometry is unchanged are copied instead
/// of repainted, text is shaped once and drawn under whatever transform it has, and shadows
/// that only move are blurred once.
///
/// Intermediate surfaces (gradients, shadow masks, 3D planes) are drawn into memory the
/// renderer reuses from frame to frame, and a gradient is kept only once it has been drawn the
/// same in two consecutive frames, so a long render's memory stays flat.
///
/// Its frames are byte-identical to ``Renderer``'s for the same trees: every cached item is
/// keyed by everything that determines its pixels. Anything not used in a frame is released at
/// the end of that frame. Calls are serialised, so one instance may be handed between threads,
/// but each worker should own its own for parallel speed.
///
/// Given a ``FramePool``, it draws each frame into a buffer from the pool when there is one;
/// hand the pixels back with ``FramePool/recycle(_:)`` once the frame is consumed. Made to draw
/// in place (``drawsInPlace``), it draws each frame over the pixels of the frame it drew last
/// instead, for a consumer that is done with each frame before asking for the next. The pixels
/// are the same either way.
///
///     let renderer = FrameRenderer()
///     for n in 0..<scene.frameCount {
///       let frame = try renderer.render(scene.renderTree(at: scene.time(ofFrame: n)))
///     }
package final class FrameRenderer: Sendable {
  /// How often cached items were reused or had to be made.
  package struct CacheStatistics: Sendable, Equatable {
    /// Items drawn from the cache.
    package var hits: Int
    /// Items that had to be made (and were then kept).
    package var misses: Int

    package init(hits: Int, misses: Int) {
      self.hits = hits
      self.misses = misses
    }
  }

  /// Pixels per point.
  package let scale: Double
  /// Where frames' pixel buffers come from (nil: a new buffer for every frame).
  package let pool: FramePool?
  /// Whether each frame is drawn over the pixels of the frame drawn last, in their own buffer,
  /// which the returned frame shares; the pool is then not used. Drop every reference to a
  /// frame before rendering the next, as a worker that converts each frame to an MP4's planes
  /// does: a frame still referred to is copied first (arrays are copy-on-write), the same
  /// pixels with a copy more. With ``reusesPreviousFrame``, only the boxes that changed are
  /// drawn again, and nothing is copied.
  package let drawsInPlace: Bool
  /// What the renderer keeps between frames, used by one call at a time.
  private struct Workshop {
    let cache = RasterCache()
    let prefix = StaticPrefix()
    var usesStaticPrefix = true
    let history: FrameHistory
    var usesDamage = true
    /// The memory of the intermediate surfaces.
    let arena = PixelArena()
    /// The buffers of a blurred frame's shutter samples, drawn into again for the next one (nil:
    /// released after each frame).
    let samples: FramePool?
    let text = TextContext(ownFontMap: true)

    init(drawsInPlace: Bool, keepsSampleBuffers: Bool) {
      history = FrameHistory(drawsInPlace: drawsInPlace)
      samples = keepsSampleBuffers ? FramePool(capacity: MotionBlur.sampleCounts.upperBound) : nil
    }
  }
  private let workshop: Locked<Workshop>

  /// The memory of this renderer's intermediate surfaces (internal for tests; read it between
  /// renders).
  var arena: PixelArena { workshop.withLock { $0.arena } }

  /// How the buffers of blurred frames' shutter samples were taken and given back (internal for
  /// tests).
  var sampleBuffers: FramePool.Statistics? { workshop.withLock { $0.samples?.statistics } }

  /// A renderer drawing at `scale` pixels per point, taking pixel buffers from `pool` when given,
  /// or, with `drawsInPlace`, drawing each frame over the last one's pixels (no pool then).
  /// `keepsSampleBuffers` keeps a motion-blurred frame's sample buffers (up to 64 frames) for the
  /// next frame's samples, as a render's workers do; a renderer kept between requests (the
  /// studio's) lets them go after each frame.
  package init(scale: Double = 1, pool: FramePool? = nil, drawsInPlace: Bool = false, keepsSampleBuffers: Bool = true) {
    self.scale = scale
    self.pool = drawsInPlace ? nil : pool
    self.drawsInPlace = drawsInPlace
    self.workshop = Locked(Workshop(drawsInPlace: drawsInPlace, keepsSampleBuffers: keepsSampleBuffers))
  }

  /// Rasterises `tree`, reusing what earlier frames of this renderer made.
  ///
  /// - Throws: ``RasterError``, as ``Renderer/render(_:)``.
  package func render(_ tree: RenderTree) throws(RasterError) -> Frame {
    try DrawingWatch.drawing(tree.time) { () throws(RasterError) -> Frame in try draw(tree) }
  }

  private func draw(_ tree: RenderTree) throws(RasterError) -> Frame {
    let (scale, pool) = (self.scale, self.pool)
    return try workshop.withLock { w -> Result<Frame, RasterError> in
      do throws(RasterError) {
        return .success(
          try Renderer.render(
            tree, scale: scale, cache: w.cache, arena: w.arena, text: w.text, pool: pool, samples: w.samples,
            prefix: w.usesStaticPrefix ? w.prefix : nil, history: w.usesDamage ? w.history : nil))
      } catch {
        w.prefix.reset()
        w.history.reset()
        return .failure(error)
      }
    }.get()
  }

  /// Whether frames start from the kept pixels of an unchanged background and first layers
  /// (``StaticPrefix``; on by default). Off, every frame is drawn from its background, as
  /// ``Renderer`` does: the bytes are the same either way (tests compare them).
  package var reusesStaticPrefix: Bool {
    get { workshop.withLock { $0.usesStaticPrefix } }
    set {
      workshop.withLock {
        $0.usesStaticPrefix = newValue
        $0.prefix.reset()
      }
    }
  }

  /// Whether a frame is drawn only where it differs from the frame this renderer drew last
  /// (``DamageFinder``: pixel-aligned boxes around what changed, the rest copied; on by default).
  /// Off, every frame is drawn whole: the bytes are the same either way (tests compare them).
  package var reusesPreviousFrame: Bool {
    get { workshop.withLock { $0.usesDamage } }
    set {
      workshop.withLock {
        $0.usesDamage = newValue
        $0.history.reset()
      }
    }
  }

  /// How frames were drawn in part or whole (for tests and benchmarks).
  package var damageStatistics: FrameDamageStatistics { workshop.withLock { $0.history.statistics } }

  /// Whether the finished pixels of a layer drawn as a group (opacity below 1, a mask, a tint)
  /// are kept and composited again while the layer, its subtree and its place on the frame are
  /// unchanged (on by default). The bytes are the same either way (tests compare them).
  package var reusesGroups: Bool {
    get { workshop.withLock { $0.cache.keepsGroups } }
    set { workshop.withLock { $0.cache.keepsGroups = newValue } }
  }

  /// How many groups were composited from kept pixels (for tests and benchmarks).
  package var keptGroupHits: Int { workshop.withLock { $0.cache.statistics.groupHits } }

  /// How often frames started from kept pixels (for tests and benchmarks).
  package var prefixStatistics: StaticPrefixStatistics { workshop.withLock { $0.prefix.statistics } }

  /// Reuse counts since this renderer was made.
  package var cacheStatistics: CacheStatistics {
    workshop.withLock { CacheStatistics(hits: $0.cache.statistics.hits, misses: $0.cache.statistics.misses) }
  }
}
