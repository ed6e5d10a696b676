import FlickExpectations
import FlickRaster
import FlickTestSupport
import Testing

@testable import FlickSnapshot

/// The report's pixel loops (`DiffRenderer.blit`, `scaled`, `grey`, `PNGImage.frame`) run over
/// unsafe buffers; here each is compared byte for byte with the plain per-pixel loop it replaced,
/// on random translucent frames and offsets that clip at the canvas's edges.
@Suite struct DiffPixelLoopTests {
  /// A premultiplied frame of random pixels (alpha 0, 255 and in between), with padded rows
  /// when `padding` is positive.
  static func randomFrame(width: Int, height: Int, padding: Int = 0, using random: inout SeededGenerator) -> Frame {
    let stride = width * 4 + padding
    var pixels = [UInt8](repeating: 0, count: stride * height)
    for y in 0..<height {
      for x in 0..<width {
        let i = y * stride + x * 4
        let alpha: UInt8 = [0, 255, UInt8(random.next() % 256)][Int(random.next() % 3)]
        for c in 0..<3 { pixels[i + c] = UInt8(random.next() % (UInt64(alpha) + 1)) }
        pixels[i + 3] = alpha
      }
    }
    return Frame(width: width, height: height, bytesPerRow: stride, pixels: pixels)
  }

  /// The per-pixel blit the report used before.
  static func referenceBlit(_ src: Frame, into dst: inout Frame, atX ox: Int, y oy: Int) {
    for y in 0..<src.height where oy + y < dst.height {
      for x in 0..<src.width where ox + x < dst.width {
        let j = y * src.bytesPerRow + x * 4
        let a = Int(src.pixels[j + 3])
        let bg = ((x / 8) + (y / 8)) % 2 == 0 ? 204 : 255
        func over(_ c: UInt8) -> UInt8 { UInt8(min(255, Int(c) + (bg * (255 - a) + 127) / 255)) }
        DiffRenderer.put(&dst, ox + x, oy + y, over(src.pixels[j + 2]), over(src.pixels[j + 1]), over(src.pixels[j]))
      }
    }
  }

  @Test func blitAndGreyGiveTheBytesOfThePerPixelLoops() {
    var random = SeededGenerator(seed: 7)
    for _ in 0..<20 {
      let src = Self.randomFrame(
        width: 1 + Int(random.next() % 40), height: 1 + Int(random.next() % 30), padding: Int(random.next() % 2) * 8,
        using: &random)
      let (width, height) = (1 + Int(random.next() % 50), 1 + Int(random.next() % 40))
      let (ox, oy) = (Int(random.next() % 30), Int(random.next() % 30))
      var expected = Frame(width: width, height: height)
      for y in 0..<height { for x in 0..<width { DiffRenderer.put(&expected, x, y, 96, 96, 96) } }
      var got = DiffRenderer.grey(width: width, height: height)
      expectEqual(got, expected, "grey \(width)×\(height)")
      Self.referenceBlit(src, into: &expected, atX: ox, y: oy)
      DiffRenderer.blit(src, into: &got, atX: ox, y: oy)
      expectEqual(got, expected, "\(src.width)×\(src.height) at (\(ox), \(oy)) into \(width)×\(height)")
    }
  }

  @Test func scaledGivesTheBytesOfThePerPixelLoop() {
    var random = SeededGenerator(seed: 11)
    for factor in 1...4 {
      let frame = Self.randomFrame(width: 9, height: 7, padding: factor == 3 ? 4 : 0, using: &random)
      var expected = Frame(width: frame.width * factor, height: frame.height * factor)
      for y in 0..<expected.height {
        for x in 0..<expected.width {
          let s = (y / factor) * frame.bytesPerRow + (x / factor) * 4, d = y * expected.bytesPerRow + x * 4
          for c in 0..<4 { expected.pixels[d + c] = frame.pixels[s + c] }
        }
      }
      expectEqual(DiffRenderer.scaled(frame, by: factor), expected, "×\(factor)")
    }
  }

  @Test func decodedFramesArePremultipliedAsBefore() {
    var random = SeededGenerator(seed: 13)
    var image = PNGImage(frame: Self.randomFrame(width: 23, height: 17, using: &random))
    // Straight-alpha words of every kind, including colour under alpha 0.
    image.words = image.words.map { $0 ^ UInt32(truncatingIfNeeded: random.next()) & 0x00FF_FFFF }
    var expected = [UInt8](repeating: 0, count: image.width * image.height * 4)
    for (i, w) in image.words.enumerated() {
      let a = Int(w >> 24)
      func mul(_ c: UInt32) -> UInt8 {
        if a == 255 { return UInt8(c & 0xFF) }
        let t = a * Int(c & 0xFF) + 0x80
        return UInt8((t + (t >> 8)) >> 8)
      }
      if a == 0 { continue }
      expected[i * 4] = mul(w)
      expected[i * 4 + 1] = mul(w >> 8)
      expected[i * 4 + 2] = mul(w >> 16)
      expected[i * 4 + 3] = UInt8(a)
    }
    expectEqual(image.frame.pixels, expected)
  }
}
