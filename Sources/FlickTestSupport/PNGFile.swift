internal import CPNG
import Foundation

/// A PNG file read or written by libpng itself, not by Flick's renderer: for the tests that run
/// `flick` and look at the pictures it wrote (or give it one to read), which then need no Flick
/// module but this one and compile while the renderer does, and for the tests of Flick's own PNG
/// encoder, which compare what libpng's reader decodes from its files.
package struct PNGFile: Sendable {
  /// Why a file could not be read or written.
  package struct Failure: Error, CustomStringConvertible {
    package var description: String
  }

  /// Size in pixels.
  package let width: Int
  package let height: Int
  /// 8-bit straight (not premultiplied) RGBA, row after row, `width × 4` bytes a row.
  package let rgba: [UInt8]

  /// Decodes the PNG at `path` (any bit depth or colour type libpng's simplified reader takes).
  package init(path: String) throws(Failure) {
    var width: Int32 = 0
    var height: Int32 = 0
    var pixels: UnsafeMutablePointer<UInt8>?
    guard flick_png_read_rgba(path, &width, &height, &pixels) == 0, let pixels else {
      throw Failure(description: "\(path): not a PNG libpng reads")
    }
    defer { free(pixels) }
    self.width = Int(width)
    self.height = Int(height)
    rgba = Array(UnsafeBufferPointer(start: pixels, count: Int(width) * Int(height) * 4))
  }

  /// The pixel at column `x`, row `y` (from the top left), straight alpha.
  package func rgba(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
    precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)×\(height)")
    let i = (y * width + x) * 4
    return (rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3])
  }

  /// Writes a fully transparent `width × height` PNG to `path` (compressed: a large blank picture
  /// stays a small file).
  package static func writeTransparent(width: Int, height: Int, to path: String) throws(Failure) {
    let pixels = [UInt8](repeating: 0, count: width * height * 4)
    let status = pixels.withUnsafeBufferPointer {
      flick_png_write(path, $0.baseAddress, Int32(width), Int32(height), Int32(width * 4))
    }
    guard status == 0 else { throw Failure(description: "\(path): cannot write a PNG (errno \(status))") }
  }
}
