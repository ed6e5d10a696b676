import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

@testable import FlickRaster

/// ``ShutterAverage`` (motion blur's average of the shutter samples) gives the bytes of the plain
/// pixel-by-pixel average below, which it replaced: on seeded random samples where some blocks
/// hold still, some pixels move, and alpha is 0, 255 or in between.
@Suite struct ShutterAverageTests {
  /// The average as first written: every pixel compared, byte by byte, in every sample.
  static func reference(_ frames: [Frame]) -> [UInt8] {
    let n = frames.count
    let count = frames[0].pixels.count
    var out = [UInt8](repeating: 0, count: count)
    for i in stride(from: 0, to: count, by: 4) {
      let p0 = frames[0].pixels
      if frames.allSatisfy({ Array($0.pixels[i..<i + 4]) == Array(p0[i..<i + 4]) }) {
        out.replaceSubrange(i..<i + 4, with: p0[i..<i + 4])
        continue
      }
      var alphaSum = 0
      var light: (Float, Float, Float) = (0, 0, 0)
      for frame in frames {
        let a = Int(frame.pixels[i + 3])
        guard a > 0 else { continue }
        alphaSum += a
        func straight(_ c: UInt8) -> Int { min(255, (Int(c) * 255 + a / 2) / a) }
        let w = Float(a)
        light.0 += ShutterAverage.toLinear[straight(frame.pixels[i])] * w
        light.1 += ShutterAverage.toLinear[straight(frame.pixels[i + 1])] * w
        light.2 += ShutterAverage.toLinear[straight(frame.pixels[i + 2])] * w
      }
      let alpha = (alphaSum + n / 2) / n
      guard alpha > 0 else { continue }
      let total = Float(alphaSum)
      func channel(_ l: Float) -> UInt8 {
        UInt8(min(255, max(0, (ShutterAverage.toSRGB(l / total) * Float(alpha) / 255).rounded())))
      }
      out[i] = channel(light.0)
      out[i + 1] = channel(light.1)
      out[i + 2] = channel(light.2)
      out[i + 3] = UInt8(alpha)
    }
    return out
  }

  /// `samples` frames of `width` × `height`: one random picture, each sample changing a few
  /// runs of it (so that whole 64-byte blocks stay the same in every sample and others do not).
  static func samples(_ samples: Int, width: Int, height: Int, seed: UInt64) -> [Frame] {
    var random = SeededGenerator(seed: seed)
    func pixel() -> [UInt8] {
      let a: UInt8 = [0, 255, 255, UInt8.random(in: 1...254, using: &random)][Int(random.next() % 4)]
      // Premultiplied, with now and then a colour byte above alpha (clamped when made straight).
      let top = random.next() % 8 == 0 ? 255 : a
      return (0..<3).map { _ in UInt8.random(in: 0...top, using: &random) } + [a]
    }
    let base = (0..<width * height).flatMap { _ in pixel() }
    return (0..<samples).map { s in
      var pixels = base
      if s > 0 {
        for _ in 0..<Int(random.next() % 4) {
          let start = Int(random.next() % UInt64(width * height))
          for p in start..<min(width * height, start + 1 + Int(random.next() % 12)) {
            pixels.replaceSubrange(4 * p..<4 * p + 4, with: pixel())
          }
        }
      }
      return Frame(width: width, height: height, bytesPerRow: 4 * width, pixels: pixels)
    }
  }

  @Test(arguments: [(1, 1), (5, 3), (17, 5), (40, 9), (64, 4)])
  func theSameBytesAsThePixelByPixelAverage(_ width: Int, _ height: Int) {
    for n in [2, 3, 16] {
      for seed in UInt64(0)..<12 {
        let frames = Self.samples(n, width: width, height: height, seed: seed &* 977 &+ UInt64(width * height * n))
        let got = ShutterAverage.average(frames)
        expectEqual(got.width, width)
        expectEqual(got.height, height)
        #expect(SameBytes.equal(got.pixels, Self.reference(frames)), "\(width)×\(height), \(n) samples, seed \(seed)")
      }
    }
  }

  /// Samples that are all the same give that sample back, byte for byte.
  @Test func identicalSamplesAreKept() {
    let frames = Self.samples(1, width: 33, height: 7, seed: 5)
    let got = ShutterAverage.average(Array(repeating: frames[0], count: 8))
    #expect(SameBytes.equal(got.pixels, frames[0].pixels))
  }
}
