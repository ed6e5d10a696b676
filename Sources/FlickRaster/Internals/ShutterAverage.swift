import FlickMotion
import FlickScene
import Foundation

/// Averages the frames drawn at a frame's shutter samples in linear light (motion blur).
///
/// A pixel that is byte-identical in every sample is kept as it is, so what does not move is
/// exactly what it is without blur. Other pixels are averaged as light: each sample's straight
/// colour is decoded from sRGB, weighted by its alpha, and the weighted mean is encoded back
/// (the mean alpha is the plain mean). The arithmetic is the same on every thread and run.
///
/// Most of a blurred frame holds still: the samples are compared 64 bytes at a time, and a
/// block that is the same in every sample is copied whole; only the pixels of other blocks are
/// compared and averaged one by one.
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

  /// Bytes compared (and copied) at once: 16 pixels.
  static let block = 64

  /// The average of `frames` (same size and layout, premultiplied BGRA).
  static func average(_ frames: [Frame]) -> Frame {
    guard let first = frames.first, frames.count > 1 else { return frames.first ?? Frame(width: 1, height: 1) }
    let count = first.pixels.count
    guard count > 0 else { return first }
    precondition(frames.allSatisfy { $0.pixels.count == count }, "shutter samples of different sizes")
    let out = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      let written = frames.map(\.pixels).withUnsafeBufferPointers { sources -> Bool in
        // Every buffer holds `count` > 0 bytes, so each has an address.
        let bases = sources.compactMap(\.baseAddress)
        guard bases.count == sources.count, let dst = buffer.baseAddress else { return false }
        toLinear.withUnsafeBufferPointer { table in average(bases, count: count, table: table, into: dst) }
        return true
      }
      if !written { buffer.initialize(repeating: 0) }
      initialized = count
    }
    return Frame(width: first.width, height: first.height, bytesPerRow: first.bytesPerRow, pixels: out)
  }

  /// Writes every one of the `count` bytes of `dst` (`count` a multiple of 4).
  private static func average(
    _ sources: [UnsafePointer<UInt8>], count: Int, table: UnsafeBufferPointer<Float>,
    into dst: UnsafeMutablePointer<UInt8>
  ) {
    let p0 = sources[0]
    let others = sources.dropFirst()
    var i = 0
    while i < count {
      let end = min(count, i + block)
      if others.allSatisfy({ memcmp(p0 + i, $0 + i, end - i) == 0 }) {
        (dst + i).update(from: p0 + i, count: end - i)
      } else {
        var j = i
        while j < end {
          pixel(at: j, sources, table: table, into: dst)
          j += 4
        }
      }
      i = end
    }
  }

  /// The pixel at byte offset `i`: kept when every sample has its bytes, else averaged.
  private static func pixel(
    at i: Int, _ sources: [UnsafePointer<UInt8>], table: UnsafeBufferPointer<Float>,
    into dst: UnsafeMutablePointer<UInt8>
  ) {
    let word = UnsafeRawPointer(sources[0] + i).loadUnaligned(as: UInt32.self)
    if sources.allSatisfy({ UnsafeRawPointer($0 + i).loadUnaligned(as: UInt32.self) == word }) {
      UnsafeMutableRawPointer(dst + i).storeBytes(of: word, as: UInt32.self)
      return
    }
    let n = sources.count
    var alphaSum = 0
    var light: (Float, Float, Float) = (0, 0, 0)
    for source in sources {
      let p = source + i
      let a = Int(p[3])
      guard a > 0 else { continue }
      alphaSum += a
      let w = Float(a)
      if a == 255 {
        // (c × 255 + 127) / 255 is c itself.
        light.0 += table[Int(p[0])] * w
        light.1 += table[Int(p[1])] * w
        light.2 += table[Int(p[2])] * w
      } else {
        func straight(_ c: UInt8) -> Int { min(255, (Int(c) * 255 + a / 2) / a) }
        light.0 += table[straight(p[0])] * w
        light.1 += table[straight(p[1])] * w
        light.2 += table[straight(p[2])] * w
      }
    }
    let alpha = (alphaSum + n / 2) / n
    guard alpha > 0 else {
      UnsafeMutableRawPointer(dst + i).storeBytes(of: 0, as: UInt32.self)
      return
    }
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
