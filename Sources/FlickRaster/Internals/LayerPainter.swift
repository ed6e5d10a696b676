internal import CCairo
import FlickMotion
import FlickScene

/// Draws layers into a Cairo context. One painter draws one frame; `cache` (shared by the
/// frames of one ``FrameRenderer``) only stores intermediates, never changes what is drawn.
final class LayerPainter {
  let cache: RasterCache?
  /// Memory for intermediate surfaces.
  let arena: PixelArena
  let text: TextContext
  /// Size in device pixels of the surface being drawn (changes while drawing a 3D layer's plane).
  var targetWidth: Int
  var targetHeight: Int

  /// Whether groups are Cairo's own (`cairo_push_group`) instead of arena memory; only tests
  /// set it, to check that both give the same pixels.
  let usesCairoGroups: Bool
  /// Whether shadow masks are cut to the part the clip can see; only tests clear it, to check
  /// that both give the same pixels.
  var cropsShadows = true
  /// The smallest shadow buffer that is cut, in buffer pixels (a mebipixel: 16 M device pixels
  /// at 4× reduction, far beyond an ordinary shadow); tests lower it.
  var minimumCutArea = 1 << 20
  /// Work counters of this painter's shadows.
  var shadowStatistics = ShadowStatistics()
  /// The layer-shaped shadow masks made in this frame, when there is no ``cache`` (see
  /// ``drawShadow(_:in:)``).
  var frameShadows: [ShadowKey: ShadowMask] = [:]
  /// Gradient pictures drawn ahead on another thread (frames drawn without a cache).
  var prefetch: GradientPrefetch?
  /// How many ``draw(_:in:)`` calls are running (the level being drawn), kept at most
  /// ``FlickScene/Layer/maximumDrawingDepth`` so that no tree overflows the thread's stack.
  private var level = 0
  /// Where the stack stood when the outermost running ``draw(_:in:)`` began.
  private var stackBase: UInt = 0
  /// The most stack the levels of one drawing may take: 7 MiB of the 8 MiB every drawing thread
  /// has, the rest for what runs below the deepest level (Cairo, Pango). A level takes about
  /// 42 KB, 63 KB when the layer's shadow is cast by its content, so a template at the cap (at
  /// most 64 layer levels, with or without shadows, and replicator holders) takes at most about
  /// 6.7 MB; a tree built in Swift that would take more is refused as it draws, whatever its levels.
  static let stackBudget: UInt = 7 << 20

  init(
    cache: RasterCache?, arena: PixelArena, text: TextContext, targetWidth: Int, targetHeight: Int,
    usesCairoGroups: Bool = false
  ) {
    self.cache = cache
    self.arena = arena
    self.usesCairoGroups = usesCairoGroups
    self.text = text
    self.targetWidth = targetWidth
    self.targetHeight = targetHeight
  }

  /// Draws `layers` (siblings) in `zPosition` order.
  func draw(_ layers: [Layer], in cr: OpaquePointer) throws(RasterError) {
    let ordered = Layer(id: "", sublayers: layers).sublayersInDrawingOrder
    for layer in ordered { try draw(layer, in: cr) }
  }

  /// Draws `layer` and its subtree; the context's user space is the superlayer's.
  func draw(_ layer: Layer, in cr: OpaquePointer) throws(RasterError) {
    guard !layer.isHidden, layer.opacity > 0 else { return }
    var marker: UInt8 = 0
    let here = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    level += 1
    defer { level -= 1 }
    if level == 1 { stackBase = here }
    let used = stackBase > here ? stackBase - here : 0
    guard level <= Layer.maximumDrawingDepth else {
      throw RasterError.invalidScene(
        "layers are drawn nested more than \(Layer.maximumDrawingDepth) levels deep (sublayers, masks and replicator "
          + "copies), the cap that keeps drawing within its thread's stack"
      ).naming(layer.id)
    }
    guard used <= Self.stackBudget else {
      throw RasterError.invalidScene(
        "layers are drawn nested too deeply: their levels take more than 7 MiB of stack (sublayers, masks, "
          + "replicator copies and shadows cast by content), the cap that keeps drawing within its thread's stack"
      ).naming(layer.id)
    }
    if !layer.isDoubleSided && !layer.transform.isFlat && layer.isFacingAway { return }
    let m = layer.transformToSuperlayer
    if !m.isAffine {
      try drawProjected(layer, m, in: cr)
      return
    }
    let det = m.m11 * m.m22 - m.m12 * m.m21
    guard abs(det) > 1e-12 else { return }  // scaled to nothing
    // Nothing either when the matrix overflows, alone or with its superlayers' (see accepts).
    guard CairoDraw.accepts(cr, affine: m) else { return }
    cairo_save(cr)
    defer { cairo_restore(cr) }
    CairoDraw.transform(cr, affine: m)
    do {
      try drawBody(layer, in: cr)
    } catch {
      throw error.naming(layer.id)
    }
    // Cairo keeps its first failure in the context; the layer that caused it is named here.
    let status = cairo_status(cr)
    if status != CAIRO_STATUS_SUCCESS {
      throw RasterError.cairo(String(cString: cairo_status_to_string(status))).naming(layer.id)
    }
  }

  /// Draws the layer in its own coordinates: shadow, own content and sublayers, as one group
  /// when it has an opacity below 1 or a mask.
  func drawBody(_ layer: Layer, in cr: OpaquePointer) throws(RasterError) {
    let mask = layer.mask.flatMap { $0.isHidden ? nil : $0 }
    guard layer.colorMultiplier.alpha > 0 else { return }
    let tinted = layer.colorMultiplier != .white
    let backdrop = try layer.backdrop.flatMap { b throws(RasterError) in try captureBackdrop(layer, b, in: cr) }
    guard layer.opacity < 1 || mask != nil || tinted else {
      try drawShadow(layer, in: cr)
      paintBackdrop(backdrop, of: layer, in: cr)
      try drawOwnContent(layer, in: cr)
      return
    }
    var failure: RasterError?
    let ink = inkRect(layer, in: cr)
    // A group whose layer (whole subtree), matrix and placement are those of a group kept from
    // an earlier frame has the kept pixels: the same operations on the same cleared pixels.
    // (Not with a backdrop anywhere in it: that reads the pixels behind.)
    var key: GroupKey?
    if cache?.keepsGroups == true, backdrop == nil, !layer.containsBackdrop,
      let placement = arenaPlacement(cr, ink: ink)
    {
      let m = CairoDraw.matrix(cr)
      key = GroupKey(
        layer: layer, matrix: [m.xx, m.yx, m.xy, m.yy, m.x0, m.y0], placement: placement,
        target: [targetWidth, targetHeight])

    }
    let found = key.flatMap { cache?.group($0) }
    let kept = found?.kept
    let content: GroupPattern
    if let kept {
      guard let p = pattern(kept.content, to: cr) else { return }
      content = p
    } else {
      // Nil when off-screen (or clipped away) entirely: Cairo's group would composite nothing.
      guard let group = pushGroup(cr, ink: ink) else { return }
      do {
        try drawShadow(layer, in: group.context)
        paintBackdrop(backdrop, of: layer, in: group.context)
        try drawOwnContent(layer, in: group.context)
      } catch {
        failure = error
      }
      guard let c = popGroup(group, to: cr) else { return }
      content = c
      if tinted { multiply(content, by: layer.colorMultiplier) }
    }
    var maskKept: GroupPattern?
    if mask != nil, let kept = kept?.mask { maskKept = pattern(kept, to: cr) }
    defer {
      if let key, found?.keep == true, failure == nil, let pixels = content.pixels,
        mask == nil || maskKept?.pixels != nil
      {
        cache?.keepGroup(key, KeptGroup(content: pixels, mask: maskKept?.pixels))
      }
    }
    if let mask, failure == nil {
      let maskPattern: GroupPattern
      if let maskKept {
        maskPattern = maskKept
      } else {
        guard let maskGroup = pushGroup(cr, ink: ink) else { return }
        do { try draw(mask, in: maskGroup.context) } catch { failure = error }
        guard let p = popGroup(maskGroup, to: cr) else { return }
        maskPattern = p
        maskKept = p
      }
      if layer.opacity < 1 {
        guard let masked = pushGroup(cr, ink: ink) else { return }
        cairo_set_source(masked.context, content.pattern)
        cairo_mask(masked.context, maskPattern.pattern)
        guard let result = popGroup(masked, to: cr) else { return }
        cairo_set_source(cr, result.pattern)
        cairo_paint_with_alpha(cr, CairoDraw.clamp(layer.opacity))
      } else {
        cairo_set_source(cr, content.pattern)
        cairo_mask(cr, maskPattern.pattern)
      }
    } else {
      cairo_set_source(cr, content.pattern)
      cairo_paint_with_alpha(cr, CairoDraw.clamp(layer.opacity))
    }
    // Let go of the group's pixels before they return to the arena.
    cairo_set_source_rgb(cr, 0, 0, 0)
    if let failure { throw failure }
  }

  /// Draws a layer that ``StaticPrefix/opens(_:)`` accepts as ``draw(_:in:)`` does, but only
  /// from its sublayer `first` on (painter's order; 0: all of it, shadow and own content first)
  /// when the frame's pixels already hold what comes before, setting the same transform and
  /// clip. Calls `keep(n)` before drawing sublayer `n` = `keepingAt` (or after the last one).
  func drawOpened(
    _ layer: Layer, from first: Int, keepingAt: Int?, in cr: OpaquePointer, keep: (Int) -> Void
  ) throws(RasterError) {
    cairo_save(cr)
    defer { cairo_restore(cr) }
    CairoDraw.transform(cr, affine: layer.transformToSuperlayer)
    if first == 0 { try drawShadow(layer, in: cr) }
    try drawOwnContent(layer, in: cr, from: first, keepingAt: keepingAt, keep: keep)
  }

  /// Background, contents image, content, sublayers (clipped with `masksToBounds`) and border.
  /// With `first` > 0, only the sublayers from `first` on and the border (the rest is already
  /// drawn); `keep` is called before sublayer `keepingAt`, or after the last when it is their
  /// count.
  func drawOwnContent(
    _ layer: Layer, in cr: OpaquePointer, from first: Int = 0, keepingAt: Int? = nil, keep: (Int) -> Void = { _ in }
  ) throws(RasterError) {
    if first == 0, layer.backgroundColor.alpha > 0 {
      CairoDraw.roundedBounds(layer, to: cr)
      CairoDraw.setSource(cr, layer.backgroundColor)
      cairo_fill(cr)
    }
    let clipped = layer.masksToBounds
    if clipped {
      cairo_save(cr)
      CairoDraw.roundedBounds(layer, to: cr)
      cairo_clip(cr)
    }
    var failure: RasterError?
    do {
      if first == 0 {
        if let image = layer.contents { try drawContents(image, of: layer, in: cr) }
        switch layer.content {
        case .none: break
        case .shape(let shape): drawShape(shape, in: cr)
        case .text(let t): try drawText(t, of: layer, in: cr)
        case .gradient(let g): try drawGradient(g, of: layer, in: cr)
        case .lottie(let l): try drawLottie(l, of: layer, in: cr)
        }
      }
      let sublayers = layer.sublayersInDrawingOrder
      for index in sublayers.indices.dropFirst(first) {
        if index == keepingAt { keep(index) }
        try draw(sublayers[index], in: cr)
      }
      if keepingAt == sublayers.count { keep(sublayers.count) }
    } catch {
      failure = error
    }
    if clipped { cairo_restore(cr) }
    if let failure { throw failure }
    if layer.borderWidth > 0, layer.borderColor.alpha > 0 {
      let inset = min(layer.borderWidth, layer.bounds.width / 2, layer.bounds.height / 2)
      CairoDraw.roundedBounds(layer, to: cr)
      CairoDraw.roundedBounds(layer, to: cr, inset: inset)
      cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
      CairoDraw.setSource(cr, layer.borderColor)
      cairo_fill(cr)
      cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
    }
  }
}
