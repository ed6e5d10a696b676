import FlickMotion
import FlickScene

extension LayerPainter {
  /// A rectangle in the layer's own coordinates containing every pixel it draws (background,
  /// picture, content, sublayers clipped by `masksToBounds`, border, shadow), or nil when it
  /// draws nothing. Unwrapped text is measured with Pango.
  ///
  /// `linear` is the linear part of the map from the layer's coordinates to the pixels it is
  /// drawn into: a shadow's blur is alike along both of their axes, and the extents hold its
  /// reach along each (``shadowSpread(radius:linear:)``).
  func inkExtents(_ layer: Layer, linear: LinearMap = .identity) -> Rect? {
    var reachesEye = false
    return inkExtents(layer, linear: linear, reachesEye: &reachesEye)
  }

  /// ``inkExtents(_:)``, setting `reachesEye` when a sublayer's plane (at any depth) reaches the
  /// viewer's eye: only its part in front of the eye counts, and that part's image is unbounded
  /// in practice (it reaches about a billion times the layer's size).
  func inkExtents(_ layer: Layer, linear: LinearMap = .identity, reachesEye: inout Bool) -> Rect? {
    guard !layer.isHidden, layer.opacity > 0 else { return nil }
    var box: Box?
    func add(_ r: Rect) {
      if box == nil { box = Box(r) } else { box?.add(r) }
    }
    let b = layer.bounds
    // A backdrop fills the rounded bounds too.
    if layer.backgroundColor.alpha > 0 || layer.borderWidth > 0 || layer.backdrop != nil { add(b) }
    var inner: Box?
    func addInner(_ r: Rect) {
      if inner == nil { inner = Box(r) } else { inner?.add(r) }
    }
    if let image = layer.contents, SVGStore.isSVG(image.path),
      let size = try? SVGStore.withDocument(image.path, { $0.size })
    {
      addInner(layer.contentsGravity.rect(forImageOf: size, in: b))
    } else if let image = layer.contents, let decoded = try? ImageStore.image(at: image.path) {
      addInner(
        layer.contentsGravity.rect(
          forImageOf: Size(width: Double(decoded.width), height: Double(decoded.height)), in: b))
    }
    switch layer.content {
    case .none: break
    case .gradient: addInner(b)
    case .lottie(let l): addInner(layer.contentsGravity.rect(forImageOf: l.size, in: b))
    case .shape(let s):
      let p = s.path.controlPointBounds
      let w = Self.strokeReach(s)
      if !s.path.isEmpty {
        addInner(Rect(x: p.minX - w, y: p.minY - w, width: p.width + 2 * w, height: p.height + 2 * w))
      }
    case .text(let t):
      if t.isWrapped || t.truncationMode != .none {
        addInner(
          Rect(
            x: b.minX, y: b.minY, width: b.width, height: max(b.height, measuredTextSize(t, layer)?.height ?? b.height))
        )
      } else if !t.string.isEmpty, let layout = (try? textLayout(t, size: b.size)) ?? nil {
        // Where the lines draw: at the alignment's offset, and any line moved to its side.
        let size = layout.size
        var minX = layout.offsetX
        var maxX = layout.offsetX + size.width
        for line in layout.moved.values {
          minX = min(minX, line.minX)
          maxX = max(maxX, line.maxX)
        }
        addInner(Rect(x: b.minX + minX - 2, y: b.minY - 2, width: maxX - minX + 4, height: size.height + 4))
      }
      // The glyphs' ink may leave the logical box (italic overhang, stacked marks, ink above the
      // ascent or below the descent).
      if let drawn = drawnTextBox(t, layer) { addInner(drawn) }
      if let transition = t.transition, transition.isActive(showing: t.string) {
        // Both texts, anywhere their alignment may put them, and the rolling characters' travel.
        var old = t
        old.string = transition.from
        let sizes = [measuredTextSize(t, layer), measuredTextSize(old, layer)].compactMap { $0 }
        let w = sizes.map(\.width).max() ?? 0
        let h = sizes.map(\.height).max() ?? 0
        let travel = h * (Self.rollTravel + 0.5) + 2
        // Each character is drawn on its own at its logical place: widened by its ink's overhang.
        let o = glyphOverhang(t, from: transition.from)
        addInner(
          Rect(
            x: b.minX - w - 2 - o.left, y: b.minY - travel - o.top, width: b.width + 2 * w + 4 + o.left + o.right,
            height: max(b.height, h) + 2 * travel + o.top + o.bottom))
      }
    }
    for sub in layer.sublayers {
      let m = sub.transformToSuperlayer
      guard let e = inkExtents(sub, linear: linear.concatenating(m), reachesEye: &reachesEye) else { continue }
      // The part in front of the eye (all of it unless a corner is at or behind it).
      let corners = e.cornerPolygon
      let front = m.frontPart(of: corners)
      if front != corners { reachesEye = true }
      for p in front { addInner(Rect(origin: m.frontImage(of: p), size: .zero)) }
    }
    if var i = inner {
      if layer.masksToBounds {
        i.minX = max(i.minX, b.minX); i.minY = max(i.minY, b.minY)
        i.maxX = min(i.maxX, b.maxX); i.maxY = min(i.maxY, b.maxY)
      }
      if i.maxX > i.minX, i.maxY > i.minY { add(i.rect) }
    }
    // The shadow is cast by the shadow path when there is one (it may reach beyond the content).
    var caster = box
    if let path = layer.shadowPath, !path.isEmpty {
      let p = path.controlPointBounds
      if caster == nil { caster = Box(p) } else { caster?.add(p) }
    }
    if layer.shadowOpacity > 0, layer.shadowColor.alpha > 0, let e = caster?.rect {
      let spread = Self.shadowSpread(radius: layer.shadowRadius, linear: linear)
      add(
        Rect(
          x: e.minX + layer.shadowOffset.x - spread.x, y: e.minY + layer.shadowOffset.y - spread.y,
          width: e.width + 2 * spread.x, height: e.height + 2 * spread.y))
    }
    return box?.rect
  }

  /// How far beyond its caster's box a shadow of `radius` points reaches along the layer's x and
  /// y axes when drawn through `linear`: at least 3 · radius + 2 points, and 3σ + 2 device pixels
  /// in every direction of the device, where the blur happens (σ = radius · √|det|,
  /// ``ShadowMask/sigma(radius:matrix:)``). A box grown by `x` and `y` maps to one grown by a
  /// parallelogram whose sides lie `y · |det| / |linear · (1, 0)|` and `x · |det| / |linear · (0, 1)|`
  /// device pixels from its centre: under a transform that shrinks one axis, that axis needs far
  /// more than 3 · radius points.
  static func shadowSpread(radius: Double, linear m: LinearMap) -> (x: Double, y: Double) {
    let r = max(0, radius)
    let points = 3 * r + 2
    let det = abs(m.xx * m.yy - m.xy * m.yx)
    guard det > 0, det.isFinite else { return (points, points) }
    let device = 3 * r * det.squareRoot() + 2
    let x = device * (m.xy * m.xy + m.yy * m.yy).squareRoot() / det
    let y = device * (m.xx * m.xx + m.yx * m.yx).squareRoot() / det
    // A rounding error beyond `points` (a rotation's cos² + sin²) leaves `points`.
    func reach(_ v: Double) -> Double { v.isFinite && v > points * (1 + 1e-9) ? v : points }
    return (reach(x), reach(y))
  }

  /// How far from its path (its control points' box) a stroke in `s`'s style reaches, in points,
  /// plus a point: half the line width, times √2 for square caps (a cap's corner, on a diagonal)
  /// and times the miter limit for miter joins (a miter's tip). Round caps and joins, butt caps and
  /// bevel joins stay within half the width; a dash's ends have the same caps. 0 without a stroke.
  static func strokeReach(_ s: ShapeContent) -> Double {
    guard s.strokeColor.alpha > 0 else { return 0 }
    let cap = s.lineCap == .square ? 2.0.squareRoot() : 1
    let join = s.lineJoin == .miter ? max(1, s.miterLimit) : 1
    return max(0, s.lineWidth) * max(cap, join) / 2 + 1
  }

  /// The box of everything a text layer's laid-out text draws (Pango's ink and logical
  /// rectangles), in the layer's coordinates; nil without text.
  func drawnTextBox(_ t: TextContent, _ layer: Layer) -> Rect? {
    guard !t.string.isEmpty, let layout = (try? textLayout(t, size: layer.bounds.size)) ?? nil else { return nil }
    var box = layout.drawnBox
    box.origin.x += layer.bounds.minX
    box.origin.y += layer.bounds.minY
    return box
  }

  /// How far the ink of any one character of a text transition's strings reaches beyond its
  /// logical box, drawn on its own as ``drawTextTransition(_:_:of:in:)`` draws it.
  func glyphOverhang(_ t: TextContent, from: String) -> (left: Double, top: Double, right: Double, bottom: Double) {
    var g = t
    g.transition = nil
    g.isWrapped = false
    g.truncationMode = .none
    g.alignment = .left
    var o = (left: 0.0, top: 0.0, right: 0.0, bottom: 0.0)
    for c in Set(t.string + from) where c != " " {
      g.string = String(c)
      guard let layout = (try? textLayout(g, size: Size(width: 0, height: 0))) ?? nil else { continue }
      let drawn = layout.drawnBox
      let size = layout.size
      o.left = max(o.left, -drawn.minX)
      o.top = max(o.top, -drawn.minY)
      o.right = max(o.right, drawn.maxX - size.width)
      o.bottom = max(o.bottom, drawn.maxY - size.height)
    }
    return o
  }

  /// The logical size of a text layer's laid-out text (through the layout cache).
  func measuredTextSize(_ t: TextContent, _ layer: Layer) -> Size? {
    guard !t.string.isEmpty else { return nil }
    return (try? textLayout(t, size: layer.bounds.size))??.size
  }

  /// Whether everything the layer draws lies inside its rounded bounds, which it fills opaquely:
  /// its alpha is then exactly the rounded bounds (a shadow needs no drawing of the content). A
  /// gradient with opaque colours fills them whatever its points (``LayerPainter/fillGradient(_:of:in:)``
  /// fills a degenerate one with one colour too).
  func isOpaqueRoundedBounds(_ layer: Layer) -> Bool {
    guard layer.mask == nil else { return false }
    let opaqueGradient = layer.gradient.map { $0.colors.colors.allSatisfy { $0.alpha >= 1 } } ?? false
    guard layer.backgroundColor.alpha >= 1 || opaqueGradient else { return false }
    if layer.masksToBounds { return true }
    var probe = layer
    probe.backgroundColor = .clear
    probe.borderWidth = 0
    probe.shadowOpacity = 0
    probe.backdrop = nil
    if case .gradient = probe.content { probe.content = .none }
    guard let e = inkExtents(probe) else { return true }
    return [
      Point(x: e.minX, y: e.minY), Point(x: e.maxX, y: e.minY), Point(x: e.minX, y: e.maxY),
      Point(x: e.maxX, y: e.maxY),
    ]
    .allSatisfy { Self.roundedBounds(of: layer, contain: $0) }
  }

  /// Whether `p` lies inside the layer's rounded bounds (a convex shape).
  static func roundedBounds(of layer: Layer, contain p: Point) -> Bool {
    let b = layer.bounds
    guard p.x >= b.minX, p.x <= b.maxX, p.y >= b.minY, p.y <= b.maxY else { return false }
    let r = min(max(0, layer.cornerRadius), b.width / 2, b.height / 2)
    guard r > 0 else { return true }
    let corners: [(CornerMask, Double, Double)] = [
      (.layerMinXMinYCorner, b.minX + r, b.minY + r), (.layerMaxXMinYCorner, b.maxX - r, b.minY + r),
      (.layerMinXMaxYCorner, b.minX + r, b.maxY - r), (.layerMaxXMaxYCorner, b.maxX - r, b.maxY - r),
    ]
    for (mask, cx, cy) in corners where layer.maskedCorners.contains(mask) {
      let outsideX = mask == .layerMinXMinYCorner || mask == .layerMinXMaxYCorner ? p.x < cx : p.x > cx
      let outsideY = mask == .layerMinXMinYCorner || mask == .layerMaxXMinYCorner ? p.y < cy : p.y > cy
      if outsideX && outsideY && (p.x - cx) * (p.x - cx) + (p.y - cy) * (p.y - cy) > r * r { return false }
    }
    return true
  }
}

/// The linear part of a map from a layer's coordinates to the pixels it is drawn into, as
/// Cairo's matrix holds it: a move by (dx, dy) moves the pixel by (xx·dx + xy·dy, yx·dx + yy·dy).
struct LinearMap: Equatable {
  var xx, yx, xy, yy: Double

  static let identity = LinearMap(xx: 1, yx: 0, xy: 0, yy: 1)

  /// The map of a sublayer drawn with `t` inside a layer drawn with this one. A projective `t`
  /// draws the sublayer as a plane rendered about at its own size: the identity.
  func concatenating(_ t: ProjectiveTransform) -> LinearMap {
    guard t.isAffine else { return .identity }
    return LinearMap(
      xx: xx * t.m11 + xy * t.m21, yx: yx * t.m11 + yy * t.m21, xy: xx * t.m12 + xy * t.m22,
      yy: yx * t.m12 + yy * t.m22)
  }
}

/// A growing bounding box.
struct Box {
  var minX, minY, maxX, maxY: Double
  init(_ r: Rect) {
    (minX, minY, maxX, maxY) = (r.minX, r.minY, r.maxX, r.maxY)
  }
  mutating func add(_ p: Point) {
    minX = min(minX, p.x); minY = min(minY, p.y); maxX = max(maxX, p.x); maxY = max(maxY, p.y)
  }
  mutating func add(_ r: Rect) {
    add(Point(x: r.minX, y: r.minY))
    add(Point(x: r.maxX, y: r.maxY))
  }
  var rect: Rect { Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY) }
}
