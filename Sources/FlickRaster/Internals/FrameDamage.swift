import FlickMotion
import FlickScene

/// A rectangle of whole device pixels: columns `x0..<x1`, rows `y0..<y1`.
struct PixelBox: Equatable {
  var x0, y0, x1, y1: Int

  var area: Int { max(0, x1 - x0) * max(0, y1 - y0) }
  var isEmpty: Bool { x1 <= x0 || y1 <= y0 }

  func union(_ o: PixelBox) -> PixelBox {
    PixelBox(x0: min(x0, o.x0), y0: min(y0, o.y0), x1: max(x1, o.x1), y1: max(y1, o.y1))
  }

  /// Whether the two share a pixel or an edge (merging them then costs nothing).
  func touches(_ o: PixelBox) -> Bool { x0 <= o.x1 && o.x0 <= x1 && y0 <= o.y1 && o.y0 <= y1 }
}

/// Where a frame's pixels can differ from those of the frame a worker drew before it, found from
/// the two render trees alone: the device-space ink of every layer whose drawing differs (its
/// old and its new place, with its shadow), as at most ``maximumBoxes`` pixel-aligned boxes.
///
/// Two sibling lists are compared pairwise in drawing order. A pair that is equal (same values,
/// same place on the frame) draws the same pixels. A pair whose own values are equal but whose
/// sublayers differ is compared one level down, when the layer's pixels are the composite of its
/// sublayers' pixels at the same place (``isDecomposable(_:)``); otherwise both whole subtrees are
/// damaged. A pixel outside every damaged box then receives exactly the same drawing operations
/// in both frames, so it keeps its value.
///
/// What cannot be bounded this way makes the whole frame damaged (nil): a different canvas,
/// motion blur, a backdrop (it reads the pixels behind it, which the frame does not hold), a
/// point mapped behind the viewer or to no finite place.
struct DamageFinder {
  let painter: LayerPainter
  let width: Int
  let height: Int
  /// Device pixels added on every side of a damaged layer's ink, beyond its antialiased edges.
  static let margin = 2.0
  /// The most boxes a frame is clipped to (nearest boxes are merged beyond it).
  static let maximumBoxes = 4
  private var boxes: [Box] = []
  private var whole = false

  init(painter: LayerPainter, width: Int, height: Int) {
    self.painter = painter
    self.width = width
    self.height = height
  }

  /// The boxes where a frame of `new` (top-level layers) differs from one of `old` drawn at
  /// `scale` pixels per point; empty when nothing differs, nil when the whole frame may differ.
  mutating func damage(from old: [Layer], to new: [Layer], scale: Double) -> [PixelBox]? {
    if old.contains(where: \.containsBackdrop) || new.contains(where: \.containsBackdrop) {
      return old == new ? [] : nil
    }
    let device = ProjectiveTransform(scale, 0, 0, 0, scale, 0, 0, 0, 1)
    let before = Layer(id: "", sublayers: old).sublayersInDrawingOrder
    compare(before, Layer(id: "", sublayers: new).sublayersInDrawingOrder, device, device)
    guard !whole else { return nil }
    var result = Self.merged(boxes.compactMap(pixelBox))
    // No antialiased shape may cross a box's edge (see ``settle(_:_:_:)``).
    while !result.isEmpty {
      var grown = result
      settle(&grown, Layer(id: "", sublayers: new).sublayersInDrawingOrder, device)
      guard !whole else { return nil }
      grown = Self.merged(grown)
      if grown == result { break }
      result = grown
    }
    return result
  }

  /// Grows `boxes` so that no layer of `layers` (the new frame's) whose own drawing is rasterised
  /// as antialiased shapes (fills, strokes, clip paths, pictures, text, shadows, masks, 3D
  /// planes) crosses a box's edge: Cairo clips a shape to the clip rectangle before scan
  /// converting it, and the edges that adds change how the scan converter samples the shape's
  /// rows, so a cut shape's pixels inside the box could differ from the whole frame's by a level.
  /// A shape wholly inside a box (or wholly outside) is rasterised exactly as in a whole frame.
  /// Gradients (drawn into a picture of their own, then copied on whole pixels) and groups
  /// (composited pixel by pixel) may cross.
  private mutating func settle(_ boxes: inout [PixelBox], _ layers: [Layer], _ parent: ProjectiveTransform) {
    for layer in layers where !whole && !layer.isHidden && layer.opacity > 0 {
      guard let ink = deviceBox(layer, parent, withBounds: layer.masksToBounds).flatMap(pixelBox) else { continue }
      guard let i = boxes.firstIndex(where: { Self.overlaps($0, ink) }) else { continue }
      if Self.contains(boxes[i], ink) && boxes.allSatisfy({ $0 == boxes[i] || !Self.overlaps($0, ink) }) { continue }
      if Self.drawsShapes(layer) {
        for j in boxes.indices where Self.overlaps(boxes[j], ink) { boxes[j] = boxes[j].union(ink) }
      } else {
        settle(&boxes, layer.sublayersInDrawingOrder, parent.concatenating(layer.transformToSuperlayer))
      }
    }
  }

  /// Whether the layer's own drawing (not its sublayers') is rasterised as shapes or masks.
  static func drawsShapes(_ layer: Layer) -> Bool {
    if layer.backgroundColor.alpha > 0 || layer.borderWidth > 0 || layer.contents != nil || layer.masksToBounds
      || layer.mask != nil || !layer.transform.isFlat || !layer.transformToSuperlayer.isAffine
      || (layer.shadowOpacity > 0 && layer.shadowColor.alpha > 0)
    {
      return true
    }
    switch layer.content {
    case .none, .gradient: return false
    case .shape, .text, .lottie: return true
    }
  }

  static func overlaps(_ a: PixelBox, _ b: PixelBox) -> Bool {
    a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
  }

  static func contains(_ a: PixelBox, _ b: PixelBox) -> Bool {
    a.x0 <= b.x0 && a.y0 <= b.y0 && a.x1 >= b.x1 && a.y1 >= b.y1
  }

  /// Compares two sibling lists (drawing order) under their superlayers' device transforms.
  private mutating func compare(_ a: [Layer], _ b: [Layer], _ am: ProjectiveTransform, _ bm: ProjectiveTransform) {
    let common = min(a.count, b.count)
    for i in 0..<common where !whole { compare(a[i], b[i], am, bm) }
    for layer in a.dropFirst(common) where !whole { add(layer, am) }
    for layer in b.dropFirst(common) where !whole { add(layer, bm) }
  }

  private mutating func compare(_ x: Layer, _ y: Layer, _ xm: ProjectiveTransform, _ ym: ProjectiveTransform) {
    if xm == ym && x == y { return }
    if xm == ym, isDecomposable(x), isDecomposable(y) {
      var xOwn = x
      var yOwn = y
      xOwn.sublayers = []
      yOwn.sublayers = []
      if xOwn == yOwn {
        let m = xm.concatenating(x.transformToSuperlayer)
        compare(x.sublayersInDrawingOrder, y.sublayersInDrawingOrder, m, m)
        return
      }
    }
    add(x, xm)
    add(y, ym)
  }

  /// Whether every pixel a layer draws is its own drawing composited with its sublayers' drawing
  /// at that same pixel, so that a sublayer that changes changes only the pixels it covers. Not
  /// so for a 3D plane (its resolution follows the whole subtree's extent) or for a shadow cast
  /// by the layer's content (it blurs the sublayers).
  func isDecomposable(_ layer: Layer) -> Bool {
    guard layer.transform.isFlat, layer.transformToSuperlayer.isAffine else { return false }
    let shadowed = layer.shadowOpacity > 0 && layer.shadowColor.alpha > 0
    return !shadowed || layer.shadowPath != nil || painter.isOpaqueRoundedBounds(layer)
  }

  /// Damages the device box of everything `layer` may draw.
  private mutating func add(_ layer: Layer, _ parent: ProjectiveTransform) {
    guard !layer.isHidden, layer.opacity > 0, let box = deviceBox(layer, parent, withBounds: false) else { return }
    boxes.append(box)
  }

  /// The device box of everything `layer` may draw (with its bounds when `withBounds`, the
  /// shape of its `masksToBounds` clip): its ink extents mapped to the frame, widened as
  /// ``LayerPainter/inkRect(_:in:)`` widens a group's (blur tails beyond 3σ, glyph overhang:
  /// 16 pixels and 4 points) and by ``margin``. Nil when it draws nothing; sets `whole` when a
  /// corner has no finite place on the frame.
  private mutating func deviceBox(_ layer: Layer, _ parent: ProjectiveTransform, withBounds: Bool) -> Box? {
    let m = parent.concatenating(layer.transformToSuperlayer)
    guard var e = painter.inkExtents(layer, linear: LinearMap.identity.concatenating(m)) else { return nil }
    if withBounds {
      var b = Box(e)
      b.add(layer.bounds)
      e = b.rect
    }
    var corners: [Point] = []
    for c in [
      Point(x: e.minX, y: e.minY), Point(x: e.maxX, y: e.minY), Point(x: e.minX, y: e.maxY),
      Point(x: e.maxX, y: e.maxY),
    ] {
      guard let p = m.apply(to: c), p.x.isFinite, p.y.isFinite else {
        whole = true
        return nil
      }
      corners.append(p)
    }
    func length(_ a: Point, _ b: Point) -> Double { (a - b).magnitudeSquared.squareRoot() }
    // Device pixels per point along the layer's edges (the largest, for a projected plane).
    let points = max(
      e.width > 0 ? max(length(corners[0], corners[1]), length(corners[2], corners[3])) / e.width : 0,
      e.height > 0 ? max(length(corners[0], corners[2]), length(corners[1], corners[3])) / e.height : 0)
    let widen = 16 + 4 * points + Self.margin
    guard widen.isFinite else {
      whole = true
      return nil
    }
    var box = Box(Rect(origin: corners[0], size: .zero))
    for p in corners.dropFirst() { box.add(p) }
    box.minX -= widen
    box.minY -= widen
    box.maxX += widen
    box.maxY += widen
    return box
  }

  /// `box` grown to whole pixels and cut to the frame (nil when off the frame).
  private func pixelBox(_ box: Box) -> PixelBox? {
    func clamp(_ v: Double, _ limit: Int) -> Int { v <= 0 ? 0 : v >= Double(limit) ? limit : Int(v) }
    let p = PixelBox(
      x0: clamp(box.minX.rounded(.down), width), y0: clamp(box.minY.rounded(.down), height),
      x1: clamp(box.maxX.rounded(.up), width), y1: clamp(box.maxY.rounded(.up), height))
    return p.isEmpty ? nil : p
  }

  /// `boxes` with touching ones merged, then the pair whose union adds the fewest pixels merged
  /// until at most ``maximumBoxes`` remain; the result's boxes are disjoint.
  static func merged(_ boxes: [PixelBox]) -> [PixelBox] {
    var result: [PixelBox] = []
    for box in boxes {
      var merged = box
      // A merged box may now touch boxes already kept: absorb them until none does.
      var changed = true
      while changed {
        changed = false
        if let i = result.firstIndex(where: { $0.touches(merged) }) {
          merged = merged.union(result.remove(at: i))
          changed = true
        }
      }
      result.append(merged)
    }
    if result.count > maximumBoxes {
      var best = (0, 1, Int.max)
      for i in result.indices {
        for j in result.indices where j > i {
          let cost = result[i].union(result[j]).area - result[i].area - result[j].area
          if cost < best.2 { best = (i, j, cost) }
        }
      }
      let union = result[best.0].union(result[best.1])
      result.remove(at: best.1)
      result.remove(at: best.0)
      return merged(result + [union])
    }
    return result
  }
}
