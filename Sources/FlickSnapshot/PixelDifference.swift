import FlickRaster

/// The result of comparing two frames pixel by pixel, exactly (the perceptual comparator builds
/// on it).
package struct PixelDifference: Sendable, Equatable {
  /// Pixels whose premultiplied BGRA bytes differ.
  package private(set) var differingPixels = 0
  /// The smallest rectangle holding every differing pixel; nil when the frames are equal.
  package private(set) var boundingBox: PixelRegion?

  /// Compares `a` and `b`.
  ///
  /// - Returns: nil when the sizes differ.
  package init?(_ a: Frame, _ b: Frame) {
    guard a.width == b.width, a.height == b.height else { return nil }
    var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
    for y in 0..<a.height {
      let ra = y * a.bytesPerRow
      let rb = y * b.bytesPerRow
      for x in 0..<a.width {
        let i = ra + x * 4
        let j = rb + x * 4
        if a.pixels[i..<(i + 4)].elementsEqual(b.pixels[j..<(j + 4)]) { continue }
        differingPixels += 1
        minX = min(minX, x)
        minY = min(minY, y)
        maxX = max(maxX, x)
        maxY = max(maxY, y)
      }
    }
    if differingPixels > 0 {
      boundingBox = PixelRegion(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }
  }
}
