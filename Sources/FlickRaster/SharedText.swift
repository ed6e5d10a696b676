import FlickScene
import Foundation

/// Text shaped once for a frame and for the glyph check of the same scene (`flick still`):
/// ``Renderer/render(_:sharing:)`` keeps every layout it makes, and
/// ``Renderer/missingGlyphs(in:sharing:)`` reads the kept ones, laying out only the text the frame
/// did not draw (hidden layers, strings of other instants). One font map serves both, so
/// fontconfig's fonts are opened once rather than once more for the check.
///
/// With ``startHelper()`` fontconfig reads its configuration on a second thread while the
/// template loads, and ``layOutAhead(of:at:)`` has that thread load Pango (only when the scene
/// has text: a scene without text never maps it) and shape the scene's text while the frame's
/// thread goes on. The layouts are the same
/// ones the frame would make (same keys, same font map), so the pixels do not change; the
/// frame's thread waits for the helper the first time it lays text out, so a frame draws its
/// other layers meanwhile.
///
/// The font map is this object's own: apart from the helper, use it from one thread at a time.
package final class SharedText: @unchecked Sendable {
  /// The helper's context, used by the helper alone until it has been joined.
  private let shaped = TextContext(ownFontMap: true, keepsLayouts: true)
  /// The frame's and the check's context: it takes over the helper's font map and layouts on its
  /// first use, waiting for the helper then (registering font files is not a use).
  private(set) lazy var context = TextContext(takingOver: { [weak self] in
    guard let self else { return nil }
    self.stopHelper()
    return self.shaped
  })
  /// What the helper is given to lay out (nil: nothing yet) and whether it should end without
  /// it, under `condition`.
  private var ahead: (scene: Scene, times: [Double], glyphScale: Double?)?
  private var stopping = false
  private let condition = NSCondition()
  /// The helper, from ``startHelper()`` until ``stopHelper()`` has joined it (under `joining`).
  private var helper: HelperThread?
  private let joining = NSLock()

  package init() {}

  /// Starts the helper thread, which initialises fontconfig now and then waits for
  /// ``layOutAhead(of:at:)`` (nothing on a machine with one core, or when the system refuses a
  /// thread: the frame's thread then does it all).
  package func startHelper() {
    guard helper == nil, ProcessInfo.processInfo.activeProcessorCount >= 2 else { return }
    helper = HelperThread.start { self.runHelper() }
  }

  /// Has the helper lay out the text of `scene` at each of `times` (the frame's instant, the
  /// glyph check's), each text once. Trees with font files of their own are left to the
  /// frame's thread, which registers them and reports their errors. With `glyphScale`, the
  /// visible text of the first instant is also drawn once at that scale (device pixels per
  /// point), so that its glyphs are rasterised before the frame draws them
  /// (``TextLayout/rasteriseGlyphs(scale:)``: the same glyph images, found in Cairo's caches).
  package func layOutAhead(of scene: Scene, at times: [Double], glyphScale: Double? = nil) {
    condition.withLock {
      ahead = (scene, times, glyphScale)
      condition.signal()
    }
  }

  /// Waits for the helper to end: at once when it was never given text to lay out, else when it
  /// has laid out what it was given. Nothing without a helper. Any thread may call it (`flick
  /// render` checks glyphs on another thread): a second caller waits until the first has joined.
  package func stopHelper() {
    joining.lock()
    defer { joining.unlock() }
    guard let helper else { return }
    condition.withLock {
      stopping = true
      condition.signal()
    }
    helper.join()
    self.helper = nil
  }

  private func runHelper() {
    // fontconfig reads its configuration while the template loads (Pango's font maps take it
    // over); Pango is loaded once the scene is known to have text (the template's check loads
    // it on the frame's thread meanwhile, beside this read).
    _ = Pango.fontconfig
    let given = condition.withLock { () -> (scene: Scene, times: [Double], glyphScale: Double?)? in
      while ahead == nil && !stopping { condition.wait() }
      return ahead
    }
    guard let given else { return }
    for (index, time) in given.times.enumerated() {
      let tree = given.scene.renderTree(at: time)
      guard tree.fontFiles.isEmpty else { continue }
      let layers = Renderer.textLayers(of: tree)
      // The frame's thread reports Pango's failure to load.
      guard !layers.isEmpty, Pango.failure == nil, shaped.context != nil else { continue }
      for layer in layers {
        // The size is what measures the lines and loads the glyphs' extents.
        guard let text = layer.text, let layout = shaped.layout(text, size: layer.bounds.size) else { continue }
        _ = layout.size
        if index == 0, let scale = given.glyphScale, !layer.isHidden, layer.opacity > 0, text.textColor.alpha > 0 {
          layout.rasteriseGlyphs(scale: scale)
        }
      }
    }
  }
}
