import FlickMotion

/// One rendered picture that owns its pixels: premultiplied BGRA, 8 bits a channel, rows top to bottom.
///
/// The byte order is Cairo's `ARGB32` on a little-endian machine (B, G, R, A in memory), which is
/// also ffmpeg's `bgra` pixel format, so frames go to the encoder without conversion.
public struct Frame: Sendable, Equatable {
  /// Width in pixels (> 0).
  public let width: Int
  /// Height in pixels (> 0).
  public let height: Int
  /// Bytes from one row to the next (≥ 4 × width).
  public let bytesPerRow: Int
  /// `bytesPerRow × height` bytes of premultiplied BGRA. It may be replaced or edited in place,
  /// but the geometry is fixed: every encoder (``writePNG(to:)``, a render pipeline's delivery)
  /// refuses a frame whose array no longer holds exactly `bytesPerRow × height` bytes
  /// (``pixelsMismatch``) before any of its bytes is read, and ``rgba(x:y:)`` and
  /// ``packedPixels`` stop the program with that message.
  public var pixels: [UInt8]

  public init(width: Int, height: Int, bytesPerRow: Int, pixels: [UInt8]) {
    precondition(width > 0 && height > 0 && bytesPerRow >= 4 * width)
    precondition(pixels.count == bytesPerRow * height)
    self.width = width
    self.height = height
    self.bytesPerRow = bytesPerRow
    self.pixels = pixels
  }

  /// A frame filled with transparent black.
  public init(width: Int, height: Int) {
    self.init(
      width: width, height: height, bytesPerRow: width * 4, pixels: [UInt8](repeating: 0, count: width * height * 4))
  }

  /// Why ``pixels`` does not fit the frame's geometry (an array of another length was assigned
  /// to it), or nil when it holds exactly `bytesPerRow × height` bytes: `the frame's pixels hold
  /// 4 bytes, but a 64×64 frame of 256 bytes a row needs 16384`.
  public var pixelsMismatch: String? {
    let needed = bytesPerRow * height
    guard pixels.count != needed else { return nil }
    return
      "the frame's pixels hold \(pixels.count) bytes, but a \(width)×\(height) frame of \(quoted: bytesPerRow) bytes a row "
      + "needs \(quoted: needed)"
  }

  /// The premultiplied pixel at (`x`, `y`) as straight (un-premultiplied) RGBA bytes.
  public func rgba(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
    precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)×\(height)")
    if let mismatch = pixelsMismatch { preconditionFailure(mismatch) }
    let i = y * bytesPerRow + x * 4
    let a = pixels[i + 3]
    func straight(_ c: UInt8) -> UInt8 {
      guard a != 0 else { return 0 }
      let alpha = Int(a)
      let value: Int = (Int(c) * 255 + alpha / 2) / alpha
      return UInt8(min(255, value))
    }
    return (straight(pixels[i + 2]), straight(pixels[i + 1]), straight(pixels[i]), a)
  }

  /// The pixels packed without row padding (`width × 4` bytes a row), as ffmpeg's `bgra` expects.
  public var packedPixels: [UInt8] {
    if let mismatch = pixelsMismatch { preconditionFailure(mismatch) }
    if bytesPerRow == width * 4 { return pixels }
    var out = [UInt8]()
    out.reserveCapacity(width * height * 4)
    for y in 0..<height {
      out.append(contentsOf: pixels[(y * bytesPerRow)..<(y * bytesPerRow + width * 4)])
    }
    return out
  }
}
