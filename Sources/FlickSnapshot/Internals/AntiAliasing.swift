/// pixelmatch's anti-aliasing detector (V. Vyšniauskas, "Anti-aliased pixel and intensity slope
/// detector", 2009), on packed straight-alpha words, row-major, `width × height`.
enum AntiAliasing {
  /// Whether pixel (`x1`, `y1`) of `img` looks like anti-aliasing.
  ///
  /// Steps, exactly as pixelmatch: among the 8 neighbours (an image edge counts as one equal
  /// neighbour), more than 2 with the same colour means not AA; no neighbour both darker and
  /// brighter (gamma-space luma) means not AA; otherwise it is AA when the darkest or the brightest
  /// neighbour has 3 or more identical siblings in both images (it sits on a flat area).
  static func isAntiAliased(
    _ img: UnsafeBufferPointer<UInt32>, x x1: Int, y y1: Int, width: Int, height: Int,
    _ a: UnsafeBufferPointer<UInt32>, _ b: UnsafeBufferPointer<UInt32>
  ) -> Bool {
    let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0)
    let x2 = min(x1 + 1, width - 1), y2 = min(y1 + 1, height - 1)
    let pos = y1 * width + x1
    let center = img[pos]
    var zeroes = (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0
    // First pass, integers only: identical neighbours. The result does not depend on the order in
    // which equal neighbours are met, so counting them first only makes flat areas cheap.
    var x = x0
    while x <= x2 {
      var y = y0
      while y <= y2 {
        if img[y * width + x] == center && !(x == x1 && y == y1) {
          zeroes += 1
          if zeroes > 2 { return false }
        }
        y += 1
      }
      x += 1
    }
    // Second pass, in pixelmatch's order (x outer, y inner), over the neighbours that differ.
    var minDelta = 0.0, maxDelta = 0.0
    var minX = 0, minY = 0, maxX = 0, maxY = 0
    x = x0
    while x <= x2 {
      var y = y0
      while y <= y2 {
        let neighbour = img[y * width + x]
        if neighbour != center {
          let delta = ColorDelta.luma(center, neighbour, k: pos * 4)
          if delta == 0 {
            zeroes += 1
            if zeroes > 2 { return false }
          } else if delta < minDelta {
            minDelta = delta
            minX = x
            minY = y
          } else if delta > maxDelta {
            maxDelta = delta
            maxX = x
            maxY = y
          }
        }
        y += 1
      }
      x += 1
    }
    if minDelta == 0 || maxDelta == 0 { return false }
    return
      (hasManySiblings(a, x: minX, y: minY, width: width, height: height)
      && hasManySiblings(b, x: minX, y: minY, width: width, height: height))
      || (hasManySiblings(a, x: maxX, y: maxY, width: width, height: height)
        && hasManySiblings(b, x: maxX, y: maxY, width: width, height: height))
  }

  /// Whether pixel (`x1`, `y1`) has 3 or more neighbours of exactly its colour (an image edge
  /// counts as one).
  static func hasManySiblings(_ img: UnsafeBufferPointer<UInt32>, x x1: Int, y y1: Int, width: Int, height: Int)
    -> Bool
  {
    let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0)
    let x2 = min(x1 + 1, width - 1), y2 = min(y1 + 1, height - 1)
    let value = img[y1 * width + x1]
    var zeroes = (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0
    for x in x0...x2 {
      for y in y0...y2 where !(x == x1 && y == y1) {
        if img[y * width + x] == value { zeroes += 1 }
        if zeroes > 2 { return true }
      }
    }
    return false
  }
}
