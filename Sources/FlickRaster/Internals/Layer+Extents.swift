import FlickMotion
import FlickScene

extension Layer {
  /// A rectangle in the layer's own coordinates that contains everything it draws: bounds,
  /// shadow, contents image, stroke and sublayers (clipped with `masksToBounds`).
  var drawingExtents: Rect {
    var r = Box(bounds)
    if let image = contents, contentsGravity != .resize, !masksToBounds,
      let decoded = try? ImageStore.image(at: image.path)
    {
      r.add(contentsGravity.rect(forImageOf: Size(width: Double(decoded.width), height: Double(decoded.height)), in: bounds))
    }
    if case .shape(let s) = content {
      let p = s.path.controlPointBounds
      let w = s.lineWidth * max(1, s.miterLimit) / 2
      r.add(Rect(x: p.minX - w, y: p.minY - w, width: p.width + 2 * w, height: p.height + 2 * w))
    }
    if case .text(let t) = content, !t.isWrapped {
      // Unwrapped text may run past the right edge.
      r.add(Rect(x: bounds.minX - t.fontSize, y: bounds.minY, width: bounds.width + Double(t.string.count) * t.fontSize, height: bounds.height + t.fontSize))
    }
    if !masksToBounds {
      for sub in sublayers where !sub.isHidden {
        let e = sub.drawingExtents
        let m = sub.transformToSuperlayer
        let corners = [Point(x: e.minX, y: e.minY), Point(x: e.maxX, y: e.minY), Point(x: e.minX, y: e.maxY), Point(x: e.maxX, y: e.maxY)]
        for c in corners { if let p = m.apply(to: c) { r.add(p) } }
      }
    }
    if shadowOpacity > 0 {
      let spread = 3 * shadowRadius + 2
      let e = r.rect
      r.add(Rect(x: e.minX + shadowOffset.x - spread, y: e.minY + shadowOffset.y - spread, width: e.width + 2 * spread, height: e.height + 2 * spread))
    }
    return r.rect
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
