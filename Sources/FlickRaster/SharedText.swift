import FlickScene
import Foundation

/// Text shaped once for a frame and for the glyph check of the same scene (`flick still`):
/// ``Renderer/render(_:sharing:)`` keeps every layout it makes, and
/// ``Renderer/missingGlyphs(in:sharing:)`` reads the kept ones, laying out only the text the frame
/// did not draw (hidden layers, strings of other instants). One font map serves both, so
/// fontconfig's fonts are opened once rather than once more for the check.
///
/// With ``startHelper()`` fontconfig reads its configuration on a second thread while the
/// template loads. ``layOutEarly(_:)`` has that thread load Pango (only when the scene has text:
/// a scene without text never maps it) and shape the text of the layers' model values while the
/// timeline compiles: the fonts the frame needs are opened and measured then, and the layouts
/// of text no animation changes are the frame's. ``layOutAhead(of:at:)`` then has it shape the
/// text of the frame's instant while the frame's thread goes on. The layouts are the same
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
  private var ahead: Ahead?
  /// Text layers given by ``layOutEarly(_:)``, not yet taken by the helper (under `condition`).
  private var early: [Layer] = []
  private var stopping = false
  private let condition = NSCondition()
  /// The helper, from ``startHelper()`` until ``stopHelper()`` has joined it (under `joining`).
  private var helper: HelperThread?
  private let joining = NSLock()

  /// What ``layOutAhead(of:at:glyphScale:)`` gives the helper.
  private struct Ahead {
    var scene: Scene
    var times: [Double]
    var glyphScale: Double?
  }

  /// The helper's next task.
  private enum Work {
    case early([Layer])
    case ahead(Ahead)
  }

  package init() {}

  /// Starts the helper thread, which initialises fontconfig now and then waits for
  /// ``layOutEarly(_:)`` and ``layOutAhead(of:at:glyphScale:)`` (nothing on a machine with one core, or when the system refuses a
  /// thread: the frame's thread then does it all).
  package func startHelper() {
    guard helper == nil, ProcessInfo.processInfo.activeProcessorCount >= 2 else { return }
    helper = HelperThread.start { self.runHelper() }
  }

  /// Has the helper lay out the text of `scene`'s layers as they are (their model values), before
  /// the frame's instant is known (what a template's `DecodeObserver` is told): nothing for a
  /// scene with font files of its own or without text. Layouts of text the timeline changes are
  /// not used, but the fonts they opened are.
  package func layOutEarly(_ scene: Scene) {
    guard scene.fontFiles.isEmpty else { return }
    let layers = Renderer.textLayers(in: scene.layers)
    guard !layers.isEmpty else { return }
    condition.withLock {
      early += layers
      condition.signal()
    }
  }

  /// Has the helper lay out the text of `scene` at each of `times` (the frame's instant, the
  /// glyph check's), each text once. Trees with font files of their own are left to the
  /// frame's thread, which registers them and reports their errors. With `glyphScale`, the
  /// visible text of the first instant is also drawn once at that scale (device pixels per
  /// point), so that its glyphs are rasterised before the frame draws them
  /// (``TextLayout/rasteriseGlyphs(scale:)``: the same glyph images, found in Cairo's caches).
  package func layOutAhead(of scene: Scene, at times: [Double], glyphScale: Double? = nil) {
    condition.withLock {
      ahead = Ahead(scene: scene, times: times, glyphScale: glyphScale)
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
    // over); Pango is loaded once the scene is known to have text (by this thread when the
    // layers come early, else by the template's check on the frame's thread).
    _ = Pango.fontconfig
    while let work = nextWork() {
      switch work {
      case .early(let layers):
        // Only sooner: stopped before the frame's instant is given (the still failed), the
        // helper leaves the rest.
        layOut(layers, glyphScale: nil, until: { self.condition.withLock { self.stopping && self.ahead == nil } })
      case .ahead(let given):
        for (index, time) in given.times.enumerated() {
          let tree = given.scene.renderTree(at: time)
          guard tree.fontFiles.isEmpty else { continue }
          layOut(Renderer.textLayers(of: tree), glyphScale: index == 0 ? given.glyphScale : nil, until: { false })
        }
        return
      }
    }
  }

  /// What the helper does next, once there is something: early text first, as it comes, then
  /// the frame's instant; nil when it is stopped before that.
  private func nextWork() -> Work? {
    condition.withLock {
      while early.isEmpty && ahead == nil && !stopping { condition.wait() }
      if !early.isEmpty {
        defer { early.removeAll() }
        return .early(early)
      }
      return ahead.map { .ahead($0) }
    }
  }

  /// Lays out the text of `layers`, and with `glyphScale` draws the visible ones once at that
  /// scale, until `stopped` says to stop (asked before each layer). Pango is loaded only for
  /// text; the frame's thread reports its failure to load.
  private func layOut(_ layers: [Layer], glyphScale: Double?, until stopped: () -> Bool) {
    guard !layers.isEmpty, Pango.failure == nil, shaped.context != nil else { return }
    for layer in layers where !stopped() {
      // The size is what measures the lines and loads the glyphs' extents.
      guard let text = layer.text, let layout = shaped.layout(text, size: layer.bounds.size) else { continue }
      _ = layout.size
      if let scale = glyphScale, !layer.isHidden, layer.opacity > 0, text.textColor.alpha > 0 {
        layout.rasteriseGlyphs(scale: scale)
      }
    }
  }
}
