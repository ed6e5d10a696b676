internal import CCairo
import FlickMotion
import FlickScene
import Foundation

/// Text shaped once for a frame and for the glyph check of the same scene (`flick still`):
/// ``Renderer/render(_:sharing:)`` keeps every layout it makes, and
/// ``Renderer/missingGlyphs(in:sharing:)`` reads the kept ones, laying out only the text the frame
/// did not draw (hidden layers, strings of other instants). One font map serves both, so
/// fontconfig's fonts are opened once rather than once more for the check.
///
/// With ``startHelper()`` fontconfig reads its configuration on a helper thread while the
/// template loads. ``layOutEarly(_:)`` has the helpers load Pango (only when the scene has text:
/// a scene without text never maps it) and shape the text of the layers' model values while the
/// timeline compiles: the fonts the frame needs are opened and measured then, and the layouts
/// of text no animation changes are the frame's. ``layOutAhead(of:at:glyphScale:)`` then has
/// them shape the text of the frame's instant while the frame's thread goes on. The layouts are
/// the ones the frame would make (same keys), so the pixels do not change; the frame's thread
/// waits for the helpers the first time it lays text out, so a frame draws its other layers
/// meanwhile.
///
/// The text is shaped on two helper threads ("lanes"), each with a font map of its own, each
/// font (family, size, weight, style) in one lane only: opening a font and measuring it is most
/// of the cost, so each font is opened once. The lanes shape one layout at a time, as every
/// thread does (``TextLayout``'s shaping lock: Pango measures fonts with state the whole process
/// shares); what they draw ahead overlaps. The frame takes over the first lane's font map and
/// every lane's layouts; a layout draws the same pixels whichever font map shaped it (the same
/// fontconfig configuration, Cairo's glyph caches are shared).
///
/// The font maps are this object's own: apart from the helpers, use them from one thread at a
/// time.
package final class SharedText: @unchecked Sendable {
  /// The lanes' contexts, each used by its helper alone until the helpers have been joined.
  private let lanes = [
    TextContext(ownFontMap: true, keepsLayouts: true), TextContext(ownFontMap: true, keepsLayouts: true),
  ]
  /// The frame's and the check's context: it takes over the first lane's font map and every
  /// lane's layouts on its first use, waiting for the helpers then (registering font files is not
  /// a use).
  private(set) lazy var context = TextContext(takingOver: { [weak self] in
    guard let self else { return [] }
    self.stopHelper()
    return self.lanes
  })
  /// What the helpers are given to lay out (nil: nothing yet) and whether they should end without
  /// it, under `condition`.
  private var ahead: Ahead?
  /// Text layers given by ``layOutEarly(_:)``, by lane, not yet taken (under `condition`).
  private var early: [[Layer]]
  /// The lane of each font met so far, and how many fonts each lane has (under `condition`).
  private var fontLanes: [FontKey: Int] = [:]
  private var fontsPerLane: [Int]
  private var stopping = false
  /// The render trees of the instants ``layOutAhead(of:at:glyphScale:)`` gave, by index,
  /// evaluated once for both lanes.
  private let trees = Locked<[Int: RenderTree]>([:])
  private let condition = NSCondition()
  /// The helpers, from ``startHelper()`` until ``stopHelper()`` has joined them (under `joining`).
  private var helpers: [HelperThread] = []
  private let joining = NSLock()

  /// What ``layOutAhead(of:at:glyphScale:)`` gives the helpers.
  private struct Ahead {
    var scene: Scene
    var times: [Double]
    var glyphScale: Double?
  }

  /// A helper's next task.
  private enum Work {
    case early([Layer])
    case ahead(Ahead)
  }

  /// What opens a font: text of the same key is shaped in the same lane.
  private struct FontKey: Hashable {
    var family: String
    var size: Double
    var weight: TextContent.FontWeight
    var style: TextContent.FontStyle

    init(_ text: TextContent) {
      family = text.fontFamily
      size = text.fontSize
      weight = text.fontWeight
      style = text.fontStyle
    }
  }

  package init() {
    early = Array(repeating: [], count: lanes.count)
    fontsPerLane = Array(repeating: 0, count: lanes.count)
  }

  /// How many layouts each lane holds: after ``stopHelper()`` and before the frame takes them
  /// over (tests).
  var laneLayoutCounts: [Int] { lanes.map(\.keptLayoutCount) }

  /// Starts the helper threads: the first initialises fontconfig now; then they wait for
  /// ``layOutEarly(_:)`` and ``layOutAhead(of:at:glyphScale:)`` (nothing on a machine with one
  /// core, or when the system refuses a thread: the frame's thread then does it all).
  package func startHelper() {
    guard helpers.isEmpty, MachineCPUs.usable >= 2 else { return }
    for lane in lanes.indices {
      guard let helper = HelperThread.start({ self.runHelper(lane: lane) }) else { break }
      helpers.append(helper)
    }
  }

  /// Has the helpers lay out the text of `scene`'s layers as they are (their model values), before
  /// the frame's instant is known (what a template's `DecodeObserver` is told): nothing for a
  /// scene with font files of its own or without text. Layouts of text the timeline changes are
  /// not used, but the fonts they opened are.
  package func layOutEarly(_ scene: Scene) {
    guard scene.fontFiles.isEmpty else { return }
    let layers = Renderer.textLayers(in: scene.layers)
    guard !layers.isEmpty else { return }
    condition.withLock {
      for (lane, mine) in split(layers).enumerated() { early[lane] += mine }
      condition.broadcast()
    }
  }

  /// Has the helpers lay out the text of `scene` at each of `times` (the frame's instant, the
  /// glyph check's), each text once. Trees with font files of their own are left to the
  /// frame's thread, which registers them and reports their errors. With `glyphScale`, the
  /// visible text of the first instant is also drawn once at that scale (device pixels per
  /// point), and turned text under the frame's own matrices, so that its glyphs are rasterised
  /// before the frame draws them (``TextLayout/rasteriseGlyphs(linear:)``: the same glyph
  /// images, found in Cairo's caches).
  package func layOutAhead(of scene: Scene, at times: [Double], glyphScale: Double? = nil) {
    trees.withLock { $0 = [:] }
    condition.withLock {
      ahead = Ahead(scene: scene, times: times, glyphScale: glyphScale)
      condition.broadcast()
    }
  }

  /// Waits for the helpers to end: at once when they were never given text to lay out, else when
  /// they have laid out what they were given. Nothing without helpers. Any thread may call it
  /// (`flick render` checks glyphs on another thread): a second caller waits until the first has
  /// joined.
  package func stopHelper() {
    joining.lock()
    defer { joining.unlock() }
    guard !helpers.isEmpty else { return }
    condition.withLock {
      stopping = true
      condition.broadcast()
    }
    for helper in helpers { helper.join() }
    helpers = []
  }

  /// `layers` by lane, under `condition`: each font goes to the lane with the fewest fonts when
  /// it is first met, and stays there.
  private func split(_ layers: [Layer]) -> [[Layer]] {
    var out = Array(repeating: [Layer](), count: lanes.count)
    for layer in layers {
      guard let text = layer.text else { continue }
      let key = FontKey(text)
      let lane: Int
      if let known = fontLanes[key] {
        lane = known
      } else {
        lane = fontsPerLane.indices.min { fontsPerLane[$0] < fontsPerLane[$1] } ?? 0
        fontLanes[key] = lane
        fontsPerLane[lane] += 1
      }
      out[lane].append(layer)
    }
    return out
  }

  private func runHelper(lane: Int) {
    // The first lane has fontconfig read its configuration while the template loads (Pango's
    // font maps take it over). Pango is loaded by the first lane with text, which the other lane
    // may meet while that read goes on (else the template's check loads it on the frame's thread).
    if lane == 0 { _ = Pango.fontconfig }
    let shaped = lanes[lane]
    while let work = nextWork(lane: lane) {
      switch work {
      case .early(let layers):
        // Only sooner: stopped before the frame's instant is given (the still failed), the
        // helper leaves the rest.
        layOut(
          layers, in: shaped, glyphScale: nil, until: { self.condition.withLock { self.stopping && self.ahead == nil } }
        )
      case .ahead(let given):
        for index in given.times.indices {
          let tree = self.tree(of: given, at: index)
          guard tree.fontFiles.isEmpty else { continue }
          let mine = condition.withLock { split(Renderer.textLayers(of: tree))[lane] }
          layOut(mine, in: shaped, glyphScale: index == 0 ? given.glyphScale : nil, until: { false })
          if index == 0, let scale = given.glyphScale { rasteriseTurned(tree, scale: scale, lane: lane, in: shaped) }
        }
        return
      }
    }
  }

  /// The tree of `given`'s instant `index`, evaluated by the first lane that asks (the other
  /// waits for it rather than evaluate it too).
  private func tree(of given: Ahead, at index: Int) -> RenderTree {
    trees.withLock { trees in
      if let tree = trees[index] { return tree }
      let tree = given.scene.renderTree(at: given.times[index])
      trees[index] = tree
      return tree
    }
  }

  /// What the helper of `lane` does next, once there is something: early text first, as it
  /// comes, then the frame's instant; nil when it is stopped before that.
  private func nextWork(lane: Int) -> Work? {
    condition.withLock {
      while early[lane].isEmpty && ahead == nil && !stopping { condition.wait() }
      if !early[lane].isEmpty {
        defer { early[lane].removeAll() }
        return .early(early[lane])
      }
      return ahead.map { .ahead($0) }
    }
  }

  /// Rasterises the glyphs of the text of `lane`'s fonts that the frame draws straight into
  /// itself rotated or scaled (not upright at `scale`, which ``layOut(_:in:glyphScale:until:)``
  /// covers) under the matrix the frame draws it with
  /// (``LayerPainter/forEachLayerDrawnIntoTheFrame(_:scale:_:)``), and, where a layer above it
  /// casts a shadow that may be drawn from its content, under that matrix reduced as the
  /// shadow's mask is (``ShadowMask/factor(sigma:)``): the frame then finds those glyphs
  /// rasterised too. Text drawn into a group or a 3D plane rasterises its own.
  private func rasteriseTurned(_ tree: RenderTree, scale: Double, lane: Int, in shaped: TextContext) {
    typealias Linear = (xx: Double, yx: Double, xy: Double, yy: Double)
    var turned: [(text: TextContent, size: Size, linear: Linear)] = []
    LayerPainter.forEachLayerDrawnIntoTheFrame(tree.layers, scale: scale) { layer, m, above in
      guard let text = layer.text, !text.string.isEmpty, text.textColor.alpha > 0 else { return }
      if m.xx != scale || m.yy != scale || m.xy != 0 || m.yx != 0 {
        turned.append((text, layer.bounds.size, (m.xx, m.yx, m.xy, m.yy)))
      }
      for (caster, c) in above
      where caster.shadowOpacity > 0 && caster.shadowColor.alpha > 0 && caster.shadowPath == nil {
        let f = ShadowMask.factor(sigma: ShadowMask.sigma(radius: caster.shadowRadius, matrix: c))
        turned.append((text, layer.bounds.size, (m.xx / f, m.yx / f, m.xy / f, m.yy / f)))
      }
    }
    let mine = condition.withLock { turned.filter { fontLanes[FontKey($0.text)] == lane } }
    for (text, size, linear) in mine { shaped.layout(text, size: size)?.rasteriseGlyphs(linear: linear) }
  }

  /// Lays out the text of `layers` in `shaped`, and with `glyphScale` draws the visible ones once
  /// at that scale, until `stopped` says to stop (asked before each layer). Pango is loaded only
  /// for text; the frame's thread reports its failure to load.
  private func layOut(_ layers: [Layer], in shaped: TextContext, glyphScale: Double?, until stopped: () -> Bool) {
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
