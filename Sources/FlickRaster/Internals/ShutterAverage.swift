import FlickMotion
import FlickScene
import Foundation

/// Averages the frames drawn at a frame's shutter samples in linear light (motion blur).
///
/// A pixel that is byte-identical in every sample is kept as it is, so what does not move is
/// exactly what it is without blur. Other pixels are averaged as light: each sample's straight
/// colour is decoded from sRGB, weighted by its alpha, and the weighted mean is encoded back
/// (the mean alpha is the plain mean). The arithmetic is the same on every thread and run.
enum ShutterAverage {
  /// sRGB byte → linear light, `0…1`.
  static let toLinear: [Float] = (0..<256).map { i in
    let c = Float(i) / 255
    return c <= 0.04045 ? c / 12.92 : powf((c + 0.055) / 1.055, 2.4)
  }

  /// Linear light `0…1` → sRGB `0…255` (not rounded).
  static func toSRGB(_ l: Float) -> Float {
    let c = min(1, max(0, l))
    return 255 * (c <= 0.003_130_8 ? c * 12.92 : 1.055 * powf(c, 1 / 2.4) - 0.055)
  }

  /// The average of `frames` (same size and layout, premultiplied BGRA).
  static func average(_ frames: [Frame]) -> Frame {
    guard let first = frames.first, frames.count > 1 else { return frames.first ?? Frame(width: 1, height: 1) }
    let n = frames.count
    let count = first.pixels.count
    var out = [UInt8](repeating: 0, count: count)
    let buffers = frames.map(\.pixels)
    buffers.withUnsafeBufferPointers { sources in
      out.withUnsafeMutableBytes { raw in
        let dst = raw.bindMemory(to: UInt8.self)
        var i = 0
        while i < count {
          // Identical in every sample: keep the bytes.
          var same = true
          let p0 = sources[0]
          for s in 1..<n
          where
            !(sources[s][i] == p0[i] && sources[s][i + 1] == p0[i + 1]
            && sources[s][i + 2] == p0[i + 2] && sources[s][i + 3] == p0[i + 3])
          {
            same = false
            break
          }
          if same {
            dst[i] = p0[i]
            dst[i + 1] = p0[i + 1]
            dst[i + 2] = p0[i + 2]
            dst[i + 3] = p0[i + 3]
            i += 4
            continue
          }
          var alphaSum = 0
          var light: (Float, Float, Float) = (0, 0, 0)
          for s in 0..<n {
            let a = Int(sources[s][i + 3])
            guard a > 0 else { continue }
            alphaSum += a
            func straight(_ c: UInt8) -> Int { min(255, (Int(c) * 255 + a / 2) / a) }
            let w = Float(a)
            light.0 += toLinear[straight(sources[s][i])] * w
            light.1 += toLinear[straight(sources[s][i + 1])] * w
            light.2 += toLinear[straight(sources[s][i + 2])] * w
          }
          let alpha = (alphaSum + n / 2) / n
          if alpha > 0 {
            let total = Float(alphaSum)
            func channel(_ l: Float) -> UInt8 {
              let straight = toSRGB(l / total)
              return UInt8(min(255, max(0, (straight * Float(alpha) / 255).rounded())))
            }
            dst[i] = channel(light.0)
            dst[i + 1] = channel(light.1)
            dst[i + 2] = channel(light.2)
            dst[i + 3] = UInt8(alpha)
          }
          i += 4
        }
      }
    }
    return Frame(width: first.width, height: first.height, bytesPerRow: first.bytesPerRow, pixels: out)
  }
}

extension Array where Element == [UInt8] {
  /// Runs `body` with a buffer over each array (for reading many at once without copies).
  fileprivate func withUnsafeBufferPointers<R>(_ body: ([UnsafeBufferPointer<UInt8>]) -> R) -> R {
    func nest(_ index: Int, _ acc: [UnsafeBufferPointer<UInt8>]) -> R {
      if index == count { return body(acc) }
      return self[index].withUnsafeBufferPointer { nest(index + 1, acc + [$0]) }
    }
    return nest(0, [])
  }
}
