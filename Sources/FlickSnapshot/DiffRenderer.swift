import FlickMotion
import FlickRaster
import FlickScene

/// Pictures that show what changed: the diff image, a side-by-side composite and a flicker
/// animation alternating expected and actual.
package enum DiffRenderer {
  /// How much of the expected image shows through in unchanged areas (pixelmatch's `alpha`).
  package static let fade = 0.1

  /// The diff image, the size of `expected`: differences beyond the perceptual threshold red,
  /// anti-aliasing yellow, changes below the threshold blue when the comparison was exact (they
  /// count there) and faded otherwise, everything else the expected image in faded grey; a
  /// magenta frame marks the bounding box of the counted differences so a single changed pixel
  /// can be found.
  ///
  /// - Returns: nil when the sizes differ (there is no pixel correspondence to draw).
  package static func diffImage(expected: Frame, comparison: ImageComparison) -> Frame? {
    guard comparison.verdict != .sizeMismatch else { return nil }
    let w = expected.width, h = expected.height
    var out = Frame(width: w, height: h)
    let classes = comparison.pixelClasses
    for y in 0..<h {
      for x in 0..<w {
        let i = y * w + x
        let c = classes.isEmpty ? 0 : classes[i]
        switch c {
        case ImageComparison.PixelClass.changed.rawValue: put(&out, x, y, 255, 0, 0)
        case ImageComparison.PixelClass.antiAliased.rawValue: put(&out, x, y, 255, 255, 0)
        case ImageComparison.PixelClass.similar.rawValue where comparison.exact: put(&out, x, y, 0, 120, 255)
        default:
          let j = y * expected.bytesPerRow + x * 4
          let b = Double(expected.pixels[j]), g = Double(expected.pixels[j + 1])
          let r = Double(expected.pixels[j + 2]), a = Double(expected.pixels[j + 3])
          // Premultiplied form of pixelmatch's drawGrayPixel: 255 + (Y − 255)·fade·a/255.
          let luma = r * 0.29889531 + g * 0.58662247 + b * 0.11448223
          let v = UInt8(max(0, min(255, (255 + fade * (luma - a)).rounded())))
          put(&out, x, y, v, v, v)
        }
      }
    }
    if let box = comparison.boundingBox {
      outline(&out, PixelRegion(x: box.x - 2, y: box.y - 2, width: box.width + 4, height: box.height + 4))
    }
    return out
  }

  /// `golden | diff | actual` in one opaque picture, each panel labelled above it, 8 pixels apart
  /// on grey, translucent pixels shown over a checkerboard. Without a diff (sizes differ) it is
  /// `golden | actual`.
  package static func sideBySide(expected: Frame, actual: Frame, diff: Frame?) -> Frame {
    labelledRow([("golden", expected)] + (diff.map { [("diff", $0)] } ?? []) + [("actual", actual)])
  }

  /// The changed region of `golden | diff | actual`, enlarged 4–8× (nearest neighbour) so that
  /// a one-letter change can be seen: the bounding box plus a margin, at most 160 × 120 source
  /// pixels centred on it.
  ///
  /// - Returns: nil when the images differ in size.
  package static func zoom(expected: Frame, actual: Frame, diff: Frame, around box: PixelRegion) -> Frame? {
    guard expected.width == actual.width, expected.height == actual.height else { return nil }
    let margin = 4
    let w = min(expected.width, min(160, max(24, box.width + 2 * margin)))
    let h = min(expected.height, min(120, max(24, box.height + 2 * margin)))
    let cx = box.x + box.width / 2, cy = box.y + box.height / 2
    let x0 = max(0, min(expected.width - w, cx - w / 2)), y0 = max(0, min(expected.height - h, cy - h / 2))
    let factor = max(4, min(8, 1500 / max(1, 3 * w)))
    let region = PixelRegion(x: x0, y: y0, width: w, height: h)
    func enlarge(_ f: Frame) -> Frame { scaled(cropped(f, region), by: factor) }
    let where_ = "×\(factor) at (\(x0), \(y0))"
    return labelledRow([
      ("golden \(where_)", enlarge(expected)), ("diff \(where_)", enlarge(diff)), ("actual \(where_)", enlarge(actual)),
    ])
  }

  /// Panels side by side, each with its label above it.
  static func labelledRow(_ panels: [(String, Frame)]) -> Frame {
    let gap = 8, band = 20
    let width = panels.reduce(gap) { $0 + $1.1.width + gap }
    let height = (panels.map(\.1.height).max() ?? 1) + 2 * gap + band
    var out = grey(width: width, height: height)
    var left = gap
    for (title, panel) in panels {
      if let text = label(title, width: panel.width, height: band) {
        blit(text, into: &out, atX: left, y: gap / 2)
      }
      blit(panel, into: &out, atX: left, y: gap + band)
      left += panel.width + gap
    }
    return out
  }

  /// `text` in white on the grey background, `width × height` pixels, or nil when it cannot be
  /// drawn (the panel is then unlabelled, which never changes a verdict).
  static func label(_ text: String, width: Int, height: Int) -> Frame? {
    guard width >= 8 else { return nil }
    var layer = Layer(id: "label")
    layer.bounds = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
    layer.position = Point(x: Double(width) / 2, y: Double(height) / 2)
    layer.content = .text(
      TextContent(
        string: text, fontFamily: "sans-serif", fontSize: 12, fontWeight: .bold, textColor: .white,
        isWrapped: false, truncationMode: .end))
    let grey = Color(red: 96 / 255, green: 96 / 255, blue: 96 / 255)
    let scene = Scene(
      size: Size(width: Double(width), height: Double(height)), fps: 1, duration: 1, backgroundColor: grey,
      layers: [layer])
    return try? Renderer().render(scene.renderTree(at: 0))
  }

  /// The `region` of `frame`.
  static func cropped(_ frame: Frame, _ region: PixelRegion) -> Frame {
    var out = Frame(width: region.width, height: region.height)
    for y in 0..<region.height {
      let src = (region.y + y) * frame.bytesPerRow + region.x * 4
      out.pixels.replaceSubrange(
        (y * out.bytesPerRow)..<(y * out.bytesPerRow + region.width * 4),
        with: frame.pixels[src..<(src + region.width * 4)])
    }
    return out
  }

  /// `frame` enlarged `factor` times, nearest neighbour (pixels stay crisp squares).
  static func scaled(_ frame: Frame, by factor: Int) -> Frame {
    var out = Frame(width: frame.width * factor, height: frame.height * factor)
    let (width, from, to) = (out.width, frame.bytesPerRow, out.bytesPerRow)
    let height = out.height
    frame.pixels.withUnsafeBufferPointer { sourceBuffer in
      out.pixels.withUnsafeMutableBufferPointer { targetBuffer in
        guard let source = sourceBuffer.baseAddress, let target = targetBuffer.baseAddress else { return }
        var y = 0
        while y < height {
          let row = (y / factor) * from, start = y * to
          var x = 0
          while x < width {
            let s = row + (x / factor) * 4, d = start + x * 4
            target[d] = source[s]
            target[d + 1] = source[s + 1]
            target[d + 2] = source[s + 2]
            target[d + 3] = source[s + 3]
            x += 1
          }
          y += 1
        }
      }
    }
    return out
  }

  /// `frame` made opaque over a checkerboard of 8-pixel squares, on a canvas of at least
  /// `width × height` (extra area grey).
  package static func flattened(_ frame: Frame, width: Int? = nil, height: Int? = nil) -> Frame {
    let w = max(frame.width, width ?? 0), h = max(frame.height, height ?? 0)
    var out = grey(width: w, height: h)
    blit(frame, into: &out, atX: 0, y: 0)
    return out
  }

  /// An animated PNG alternating `expected` and `actual` every `interval` seconds, forever; both
  /// are flattened onto one canvas (the larger size of the two).
  ///
  /// - Returns: The APNG file's bytes.
  package static func flicker(expected: Frame, actual: Frame, interval: Double = 0.6) throws(SnapshotError) -> [UInt8] {
    let w = max(expected.width, actual.width), h = max(expected.height, actual.height)
    let frames = [flattened(expected, width: w, height: h), flattened(actual, width: w, height: h)]
    var encoded: [[UInt8]] = []
    for frame in frames { encoded.append(try PNGFile.encode(frame)) }
    do {
      return try APNG.assemble(encoded, delay: interval)
    } catch {
      throw .unwritableFile(path: "(flicker animation)", reason: error.message)
    }
  }

  // MARK: - Pixels

  /// Writes an opaque pixel.
  static func put(_ f: inout Frame, _ x: Int, _ y: Int, _ r: UInt8, _ g: UInt8, _ b: UInt8) {
    let i = y * f.bytesPerRow + x * 4
    f.pixels[i] = b
    f.pixels[i + 1] = g
    f.pixels[i + 2] = r
    f.pixels[i + 3] = 255
  }

  /// A `width × height` frame of opaque grey (96, 96, 96), the report's background.
  static func grey(width: Int, height: Int) -> Frame {
    var out = Frame(width: width, height: height)
    let rowBytes = out.bytesPerRow
    out.pixels.withUnsafeMutableBufferPointer { buffer in
      guard let pixels = buffer.baseAddress else { return }
      var y = 0
      while y < height {
        var i = y * rowBytes
        let end = i + width * 4
        while i < end {
          pixels[i] = 96
          pixels[i + 1] = 96
          pixels[i + 2] = 96
          pixels[i + 3] = 255
          i += 4
        }
        y += 1
      }
    }
    return out
  }

  /// Copies `src` into `dst` at (`ox`, `oy`) (≥ 0; what falls outside `dst` is left out),
  /// composited over a checkerboard of 8-pixel squares so the result is opaque.
  static func blit(_ src: Frame, into dst: inout Frame, atX ox: Int, y oy: Int) {
    let rows = min(src.height, dst.height - oy), columns = min(src.width, dst.width - ox)
    guard rows > 0, columns > 0 else { return }
    let (from, to) = (src.bytesPerRow, dst.bytesPerRow)
    // Pointers and `while` loops: their subscripts and arithmetic stay plain instructions in an
    // unoptimised build (the tests, the debug `flick`), where a buffer's subscript, a range's
    // iterator and `min` are generic calls.
    src.pixels.withUnsafeBufferPointer { sourceBuffer in
      dst.pixels.withUnsafeMutableBufferPointer { targetBuffer in
        guard let source = sourceBuffer.baseAddress, let target = targetBuffer.baseAddress else { return }
        var y = 0
        while y < rows {
          var x = 0
          while x < columns {
            let j = y * from + x * 4, i = (oy + y) * to + (ox + x) * 4
            let a = Int(source[j + 3])
            let bg = ((x / 8) + (y / 8)) % 2 == 0 ? 204 : 255
            // The checkerboard's share, added to each premultiplied channel.
            let under = (bg * (255 - a) + 127) / 255
            // Written out, not a helper: an unoptimised build calls a function per channel.
            let blue = Int(source[j]) + under, green = Int(source[j + 1]) + under, red = Int(source[j + 2]) + under
            target[i] = blue > 255 ? 255 : UInt8(blue)
            target[i + 1] = green > 255 ? 255 : UInt8(green)
            target[i + 2] = red > 255 ? 255 : UInt8(red)
            target[i + 3] = 255
            x += 1
          }
          y += 1
        }
      }
    }
  }

  /// Draws a 1-pixel magenta rectangle outline, clipped to the frame.
  static func outline(_ f: inout Frame, _ r: PixelRegion) {
    func plot(_ x: Int, _ y: Int) {
      if x >= 0 && x < f.width && y >= 0 && y < f.height { put(&f, x, y, 255, 0, 255) }
    }
    for x in r.x..<r.maxX {
      plot(x, r.y)
      plot(x, r.maxY - 1)
    }
    for y in r.y..<r.maxY {
      plot(r.x, y)
      plot(r.maxX - 1, y)
    }
  }
}
