internal import CCairo
import FlickMotion
import FlickScene
import Foundation

/// The gradient pictures of one frame drawn without a cache (a still, ``Renderer/render(_:)``),
/// drawn ahead on a second thread while the frame's own thread draws.
///
/// Which pictures the frame will ask for is predicted from the layer tree: the user-to-device
/// matrix of every gradient layer outside groups and 3D planes, composed with Cairo's own
/// functions on a scratch context as the painter composes it, and its ``GradientKey``. The
/// helper draws them in drawing order from the second on, one ahead of the frame's thread,
/// which also composites, lays out text and blurs shadows; each key is drawn by whichever
/// thread claims it first, and the frame's thread waits for a picture the helper is drawing
/// rather than draw it too. A picture is used only for
/// the key it was drawn for, and a key names everything that decides a picture's pixels
/// (``LayerPainter/gradientPicture(_:of:matrix:area:arena:)``), so the frame is the same bytes
/// whatever was predicted and whichever thread drew what; a wrong prediction only wastes the
/// helper's time.
///
/// Pictures drawn ahead come from the prefetch's own ``PixelArena``, touched only by the helper
/// until ``finish()`` has joined it; they are all held until then, so none is released (given
/// back to that arena) on the frame's thread while the helper may still be taking memory.
final class GradientPrefetch: @unchecked Sendable {
  /// One predicted picture.
  struct Job {
    var key: GradientKey
    var gradient: GradientContent
    var layer: Layer
    var matrix: cairo_matrix_t
    var area: (Int, Int, Int, Int)
  }

  /// When the helper draws.
  enum Mode: Equatable {
    /// No helper: the frame's thread draws every picture.
    case off
    /// Beside the frame's thread (on a machine with one core, not at all).
    case beside
    /// Before the frame's thread starts (tests: every predicted picture is taken).
    case first
  }

  /// What the prefetch did (for tests and benchmarks).
  struct Statistics: Equatable {
    /// Pictures the helper drew.
    var drawn = 0
    /// Pictures the frame's thread took from it.
    var taken = 0
  }

  private enum Entry {
    /// The helper is drawing it: the frame's thread waits for it rather than draw it too.
    case drawing
    /// The frame's thread draws it (it asked first, or the helper could not draw it).
    case mine
    case ready(CairoImage)
  }

  /// The most pixel memory drawn ahead for one frame, in bytes (pictures are held to its end).
  static let memoryLimit = 64 << 20

  /// What both threads read and write, under `condition`.
  private struct Shared {
    var entries: [GradientKey: Entry] = [:]
    var statistics = Statistics()
    /// Set by ``finish()``: the helper ends after the picture it is drawing.
    var stopping = false
  }

  private let jobs: [Job]
  /// Guards `shared`; signalled whenever a picture the helper was drawing is settled.
  private let condition = NSCondition()
  private var shared = Shared()
  private let arena = PixelArena()
  /// The helper, from ``start(wait:)`` until ``finish()`` has joined it.
  private var helper: HelperThread?

  /// A prefetch of `jobs` (in the order the helper should draw them); call ``start()``, then
  /// ``finish()`` once the frame is drawn.
  init(jobs: [Job]) { self.jobs = jobs }

  /// Starts the helper thread (nothing when there are no jobs). With `wait`, returns only when
  /// the helper has drawn every job (tests: every predicted picture is then taken, not drawn
  /// again).
  func start(wait: Bool = false) {
    guard !jobs.isEmpty, helper == nil, wait || MachineCPUs.usable >= 2 else { return }
    // A thread of its own (finish() waits for it); when the system refuses one, the frame's
    // thread simply draws every picture itself.
    guard let helper = HelperThread.start({ self.run() }) else { return }
    self.helper = helper
    if wait { helper.join() }
  }

  /// The picture drawn ahead for `key` (waiting for it when the helper is drawing it), or nil:
  /// the caller draws it, and the helper will not.
  func take(_ key: GradientKey) -> CairoImage? {
    condition.lock()
    defer { condition.unlock() }
    while true {
      switch shared.entries[key] {
      case .ready(let picture):
        shared.statistics.taken += 1
        return picture
      case .drawing:
        condition.wait()
      case .mine:
        return nil
      case nil:
        shared.entries[key] = .mine
        return nil
      }
    }
  }

  /// Stops the helper (it ends after the picture it is drawing), waits for it and releases every
  /// picture; returns what it did.
  @discardableResult
  func finish() -> Statistics {
    if let helper {
      condition.withLock { shared.stopping = true }
      helper.join()
      self.helper = nil
    }
    return condition.withLock {
      shared.entries.removeAll()
      return shared.statistics
    }
  }

  private func run() {
    var bytes = 0
    for job in jobs {
      let size = (job.area.2 - job.area.0) * (job.area.3 - job.area.1) * 4
      guard bytes + size <= Self.memoryLimit else { continue }
      // nil: stop; false: the frame's thread has it.
      let claimed = condition.withLock { () -> Bool? in
        if shared.stopping { return nil }
        guard shared.entries[job.key] == nil else { return false }
        shared.entries[job.key] = .drawing
        return true
      }
      guard let claimed else { return }
      guard claimed else { continue }
      let picture = LayerPainter.gradientPicture(
        job.gradient, of: job.layer, matrix: job.matrix, area: job.area, arena: arena)
      if picture != nil { bytes += size }
      condition.withLock {
        shared.entries[job.key] = picture.map { .ready($0) } ?? .mine
        if picture != nil { shared.statistics.drawn += 1 }
        condition.broadcast()
      }
    }
  }

  /// The pictures the painter will ask for when it draws `layers` (top-level, in drawing order)
  /// into a `width` × `height` frame scaled by `scale`, from the second in drawing order on (the
  /// first one last): gradient layers
  /// that are not painted straight into the frame, outside groups (opacity below 1, a mask, a
  /// colour multiplier) and 3D planes, whose pictures have another target.
  static func jobs(for layers: [Layer], scale: Double, width: Int, height: Int) -> [Job] {
    var found: [Job] = []
    LayerPainter.forEachLayerDrawnIntoTheFrame(layers, scale: scale) { layer, matrix, _ in
      guard case .gradient(let g) = layer.content, !g.colors.colors.isEmpty, layer.bounds.width > 0,
        layer.bounds.height > 0, !LayerPainter.coversWholePixels(g, of: layer, matrix: matrix),
        let area = LayerPainter.gradientArea(of: layer, matrix: matrix, targetWidth: width, targetHeight: height)
      else { return }
      found.append(
        Job(
          key: GradientKey(gradient: g, of: layer, matrix: matrix, area: area), gradient: g, layer: layer,
          matrix: matrix, area: area))
    }
    // The frame's thread asks for the first picture at once; the helper starts one ahead and
    // stays ahead while the frame's thread composites, lays out text and blurs shadows.
    return Array(found.dropFirst()) + found.prefix(1)
  }
}
