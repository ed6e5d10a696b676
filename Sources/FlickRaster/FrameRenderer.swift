import FlickMotion
import FlickScene
import Foundation

/// A renderer for one worker that keeps what does not change between consecutive frames:
/// gradients whose geometry is unchanged are copied instead of repainted, text is shaped once
/// and drawn under whatever transform it has, and shadows that only move are blurred once.
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
/// hand the pixels back with ``FramePool/recycle(_:)`` once the frame is consumed. The pixels
/// are the same either way.
///
///     let renderer = FrameRenderer()
///     for n in 0..<scene.frameCount {
///       let frame = try renderer.render(scene.renderTree(at: scene.time(ofFrame: n)))
///     }
package final class FrameRenderer: @unchecked Sendable {
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
  private let lock = NSLock()
  private let cache = RasterCache()
  /// The memory of this renderer's intermediate surfaces (internal for tests).
  let arena = PixelArena()
  private let text: TextContext?

  /// A renderer drawing at `scale` pixels per point, taking pixel buffers from `pool` when given.
  package init(scale: Double = 1, pool: FramePool? = nil) {
    self.scale = scale
    self.pool = pool
    self.text = TextContext(ownFontMap: true)
  }

  /// Rasterises `tree`, reusing what earlier frames of this renderer made.
  ///
  /// - Throws: ``RasterError``, as ``Renderer/render(_:)``.
  package func render(_ tree: RenderTree) throws(RasterError) -> Frame {
    lock.lock()
    defer { lock.unlock() }
    guard let text else { throw .cairo("cannot create a Pango context") }
    return try Renderer.render(tree, scale: scale, cache: cache, arena: arena, text: text, pool: pool)
  }

  /// Reuse counts since this renderer was made.
  package var cacheStatistics: CacheStatistics {
    lock.lock()
    defer { lock.unlock() }
    return CacheStatistics(hits: cache.statistics.hits, misses: cache.statistics.misses)
  }
}
