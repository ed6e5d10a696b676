import FlickMotion
import FlickRaster
import Foundation

/// A PNG decoded completely by Flick: chunk structure and CRCs, the zlib stream (every block and
/// the Adler-32), every row and its filter byte, and the exact amount of data. Nothing is
/// compared until both sides of a comparison decode this way, so a damaged file never matches,
/// not even an identical copy of itself.
///
/// Pixels are kept as PNG holds them: straight (not premultiplied) 8-bit RGBA, which is also what
/// pixelmatch compares. All PNG colour types, bit depths 1–16 and Adam7 interlacing decode;
/// 16-bit samples keep their high byte (as Cairo's reader does).
///
/// Goldens written by Flick carry the renderer fingerprint that drew them in a `tEXt` chunk
/// (keyword ``rendererKeyword``), read into ``renderer``.
public struct PNGImage: Sendable {
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// Straight-alpha pixels, row-major: `B | G<<8 | R<<16 | A<<24`.
  var words: [UInt32]
  /// The renderer that drew the image, when the file says (goldens Flick wrote).
  public var renderer: RendererFingerprint?

  /// The `tEXt` keyword under which Flick stores the renderer fingerprint (JSON).
  public static let rendererKeyword = "flick-renderer"

  /// Decodes the PNG file at `path`.
  ///
  /// - Throws: ``SnapshotError/unreadableImage(path:reason:)`` when the file is missing, larger
  ///   than the limits, or does not decode completely.
  public init(contentsOf path: String, limits: DecodeLimits = .standard) throws(SnapshotError) {
    var info = stat()
    guard stat(path, &info) == 0 else {
      throw .unreadableImage(path: path, reason: String(cString: strerror(errno)).lowercased())
    }
    guard (info.st_mode & S_IFMT) == S_IFREG else { throw .unreadableImage(path: path, reason: "not a regular file") }
    guard Int(info.st_size) <= limits.maxFileBytes else {
      throw .unreadableImage(
        path: path,
        reason: "the file is \(info.st_size) bytes, over the decode limit of \(quoted: limits.maxFileBytes) "
          + "(--max-image-bytes, \(DecodeLimits.bytesVariable))")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw .unreadableImage(path: path, reason: "cannot read the file")
    }
    do {
      self = try PNGImage(bytes: [UInt8](data), limits: limits)
    } catch {
      throw .unreadableImage(path: path, reason: error.message)
    }
    self.fileBytes = data
  }

  /// The file's bytes, when decoded from a file (to tell identical files apart cheaply).
  var fileBytes: Data?

  /// Decodes PNG bytes.
  init(bytes: [UInt8], limits: DecodeLimits) throws(PNGFile.StructureError) {
    let file = try PNGFile.check(bytes)
    let header = file.chunks[0].data
    let h0 = header.startIndex
    let width = Int(PNGFile.readUInt32(bytes, h0)), height = Int(PNGFile.readUInt32(bytes, h0 + 4))
    let depth = Int(bytes[h0 + 8]), colorType = Int(bytes[h0 + 9])
    let compression = bytes[h0 + 10], filter = bytes[h0 + 11], interlace = bytes[h0 + 12]
    typealias E = PNGFile.StructureError
    // PNG limits each side to 2³¹ − 1; so does the decode limit, before any allocation.
    guard width <= Int(Int32.max), height <= Int(Int32.max) else {
      throw E(message: "invalid size \(width)×\(height) (PNG allows at most 2147483647 per side)")
    }
    guard width * height <= limits.maxPixels else {
      throw E(
        message: "the header declares \(width)×\(height) = \(width * height) pixels, over the decode limit of "
          + "\(limits.maxPixels) (--max-image-pixels, \(DecodeLimits.pixelsVariable))")
    }
    let allowed: [Int: [Int]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
    guard let depths = allowed[colorType] else { throw E(message: "invalid colour type \(quoted: colorType)") }
    guard depths.contains(depth) else {
      throw E(message: "invalid bit depth \(depth) for colour type \(quoted: colorType)")
    }
    guard compression == 0, filter == 0 else { throw E(message: "unknown compression or filter method") }
    guard interlace <= 1 else { throw E(message: "unknown interlace method \(quoted: interlace)") }

    var palette: [UInt32] = []
    var transparent: [Int]? = nil
    var data: [UInt8] = []
    var idatRun = 0  // 0 none yet, 1 in the run, 2 after it
    var text: RendererFingerprint?
    for chunk in file.chunks.dropFirst() {
      if chunk.type == "IDAT" {
        guard idatRun != 2 else { throw E(message: "IDAT chunks are not consecutive") }
        idatRun = 1
        data.append(contentsOf: chunk.data)
        continue
      }
      if idatRun == 1 { idatRun = 2 }
      switch chunk.type {
      case "PLTE":
        guard chunk.data.count % 3 == 0, chunk.data.count / 3 >= 1, chunk.data.count / 3 <= 256 else {
          throw E(message: "invalid PLTE chunk")
        }
        let p = Array(chunk.data)
        palette = stride(from: 0, to: p.count, by: 3).map {
          UInt32(p[$0 + 2]) | UInt32(p[$0 + 1]) << 8 | UInt32(p[$0]) << 16 | 0xFF00_0000
        }
      case "tRNS":
        let t = Array(chunk.data)
        switch colorType {
        case 3:
          for (i, a) in t.enumerated() where i < palette.count {
            palette[i] = (palette[i] & 0x00FF_FFFF) | UInt32(a) << 24
          }
        case 0 where t.count == 2: transparent = [Int(t[0]) << 8 | Int(t[1])]
        case 2 where t.count == 6:
          transparent = [Int(t[0]) << 8 | Int(t[1]), Int(t[2]) << 8 | Int(t[3]), Int(t[4]) << 8 | Int(t[5])]
        default: throw E(message: "invalid tRNS chunk for colour type \(quoted: colorType)")
        }
      case "tEXt":
        let t = Array(chunk.data)
        if let nul = t.firstIndex(of: 0), String(decoding: t[..<nul], as: UTF8.self) == Self.rendererKeyword {
          text = try? JSONDecoder().decode(RendererFingerprint.self, from: Data(t[(nul + 1)...]))
        }
      case "IEND": break
      default:
        // An unknown critical chunk (upper-case first letter) cannot be skipped.
        if let first = chunk.type.unicodeScalars.first, ("A"..."Z").contains(first) {
          throw E(message: "unknown critical chunk \(quoted: chunk.type)")
        }
      }
    }
    if colorType == 3 && palette.isEmpty { throw E(message: "palette image without a PLTE chunk") }

    let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType]!
    let bitsPerPixel = channels * depth
    let filterStride = max(1, bitsPerPixel / 8)
    // Adam7 passes: (x0, y0, dx, dy); a non-interlaced image is one pass.
    let passes: [(Int, Int, Int, Int)] =
      interlace == 1
      ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
      : [(0, 0, 1, 1)]
    func passSize(_ p: (Int, Int, Int, Int)) -> (Int, Int) {
      ((width - p.0 + p.2 - 1) / p.2, (height - p.1 + p.3 - 1) / p.3)
    }
    var expected = 0
    for p in passes {
      let (pw, ph) = passSize(p)
      if pw > 0 && ph > 0 { expected += ph * (1 + (pw * bitsPerPixel + 7) / 8) }
    }
    // Deflate expands at most about 1032:1, so data this short cannot hold the rows the header
    // declares: refused before the output is reserved.
    guard expected <= data.count * 1032 + 1024 else {
      throw E(
        message: "the header declares \(width)×\(height) but \(data.count) bytes of image data cannot hold "
          + "\(quoted: expected) bytes of rows (too few rows)")
    }
    var raw: [UInt8]
    do {
      raw = try Inflate.zlib(data, expected: expected)
    } catch {
      throw E(message: error.message)
    }

    var words = [UInt32](repeating: 0, count: width * height)
    var offset = 0
    var badIndex = false
    for (passIndex, p) in passes.enumerated() {
      let (pw, ph) = passSize(p)
      guard pw > 0 && ph > 0 else { continue }
      let rowBytes = (pw * bitsPerPixel + 7) / 8
      try raw.withUnsafeMutableBufferPointer { buf throws(E) in
        for y in 0..<ph {
          let row = offset + y * (rowBytes + 1)
          let kind = buf[row]
          let line = row + 1
          let prior = y == 0 ? -1 : row - rowBytes
          switch kind {
          case 0: break
          case 1:
            for i in filterStride..<max(filterStride, rowBytes) { buf[line + i] &+= buf[line + i - filterStride] }
          case 2:
            if prior >= 0 { for i in 0..<rowBytes { buf[line + i] &+= buf[prior + i] } }
          case 3:
            for i in 0..<rowBytes {
              let left = i >= filterStride ? Int(buf[line + i - filterStride]) : 0
              let up = prior >= 0 ? Int(buf[prior + i]) : 0
              buf[line + i] &+= UInt8((left + up) >> 1)
            }
          case 4:
            for i in 0..<rowBytes {
              let a = i >= filterStride ? Int(buf[line + i - filterStride]) : 0
              let b = prior >= 0 ? Int(buf[prior + i]) : 0
              let c = i >= filterStride && prior >= 0 ? Int(buf[prior + i - filterStride]) : 0
              let pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c)
              buf[line + i] &+= UInt8(pa <= pb && pa <= pc ? a : pb <= pc ? b : c)
            }
          default:
            let pass = interlace == 1 ? " of interlace pass \(passIndex + 1)" : ""
            throw E(message: "bad filter byte \(quoted: kind) on row \(y)\(quoted: pass) (damaged data)")
          }
        }
      }
      // Pixels of this pass into their places.
      raw.withUnsafeBufferPointer { buf in
        words.withUnsafeMutableBufferPointer { out in
          for y in 0..<ph {
            let line = offset + y * (rowBytes + 1) + 1
            let outRow = (p.1 + y * p.3) * width
            if depth == 8 && colorType == 6 && p.2 == 1 {
              for x in 0..<pw {
                let s = line + x * 4
                out[outRow + x] =
                  UInt32(buf[s + 2]) | UInt32(buf[s + 1]) << 8 | UInt32(buf[s]) << 16 | UInt32(buf[s + 3]) << 24
              }
              continue
            }
            for x in 0..<pw {
              out[outRow + p.0 + x * p.2] = Self.pixel(
                buf, line: line, x: x, depth: depth, colorType: colorType, channels: channels,
                palette: palette, transparent: transparent, bad: &badIndex)
            }
          }
        }
      }
      offset += ph * (rowBytes + 1)
    }
    if badIndex { throw E(message: "palette index beyond the PLTE entries") }
    self.width = width
    self.height = height
    self.words = words
    self.renderer = text
  }

  /// One pixel of a row in any colour type and depth, as a straight BGRA word.
  @inline(__always) static func pixel(
    _ buf: UnsafeBufferPointer<UInt8>, line: Int, x: Int, depth: Int, colorType: Int, channels: Int,
    palette: [UInt32], transparent: [Int]?, bad: inout Bool
  ) -> UInt32 {
    func sample(_ c: Int) -> Int {
      let index = x * channels + c
      switch depth {
      case 16: return Int(buf[line + index * 2]) << 8 | Int(buf[line + index * 2 + 1])
      case 8: return Int(buf[line + index])
      default:
        let bit = index * depth
        let byte = Int(buf[line + bit / 8])
        return (byte >> (8 - depth - bit % 8)) & ((1 << depth) - 1)
      }
    }
    func eight(_ v: Int) -> UInt32 {
      switch depth {
      case 16: return UInt32(v >> 8)
      case 8: return UInt32(v)
      default: return UInt32(v * 255 / ((1 << depth) - 1))
      }
    }
    switch colorType {
    case 3:
      let i = sample(0)
      if i < palette.count { return palette[i] }
      bad = true
      return 0
    case 0:
      let v = sample(0)
      let g = eight(v)
      let a: UInt32 = transparent?[0] == v ? 0 : 255
      return g | g << 8 | g << 16 | a << 24
    case 4:
      let g = eight(sample(0))
      return g | g << 8 | g << 16 | eight(sample(1)) << 24
    case 2:
      let r = sample(0), gg = sample(1), b = sample(2)
      let a: UInt32 = transparent == [r, gg, b] ? 0 : 255
      return eight(b) | eight(gg) << 8 | eight(r) << 16 | a << 24
    default:
      return eight(sample(2)) | eight(sample(1)) << 8 | eight(sample(0)) << 16 | eight(sample(3)) << 24
    }
  }

  // MARK: - Frames

  /// The straight-alpha pixels of a premultiplied `frame`, un-premultiplied exactly as Cairo's PNG
  /// writer does, so the result equals what a golden written from the frame holds.
  public init(frame: Frame) {
    width = frame.width
    height = frame.height
    renderer = nil
    let w = frame.width, stride = frame.bytesPerRow
    words = [UInt32](unsafeUninitializedCapacity: frame.width * frame.height) { out, count in
      frame.pixels.withUnsafeBufferPointer { p in
        for y in 0..<frame.height {
          let row = y * stride
          for x in 0..<w {
            let i = row + x * 4
            let a = UInt32(p[i + 3])
            let word: UInt32
            if a == 255 {
              word = UInt32(p[i]) | UInt32(p[i + 1]) << 8 | UInt32(p[i + 2]) << 16 | 0xFF00_0000
            } else if a == 0 {
              word = 0
            } else {
              let b = (UInt32(p[i]) * 255 + a / 2) / a, g = (UInt32(p[i + 1]) * 255 + a / 2) / a
              let r = (UInt32(p[i + 2]) * 255 + a / 2) / a
              word = b | g << 8 | r << 16 | a << 24
            }
            out[y * w + x] = word
          }
        }
      }
      count = frame.width * frame.height
    }
  }

  /// The image as a premultiplied frame, premultiplied exactly as Cairo's PNG reader does.
  public var frame: Frame {
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for (i, w) in words.enumerated() {
      let a = Int(w >> 24)
      func mul(_ c: UInt32) -> UInt8 {
        if a == 255 { return UInt8(c & 0xFF) }
        let t = a * Int(c & 0xFF) + 0x80
        return UInt8((t + (t >> 8)) >> 8)
      }
      if a == 0 { continue }
      pixels[i * 4] = mul(w)
      pixels[i * 4 + 1] = mul(w >> 8)
      pixels[i * 4 + 2] = mul(w >> 16)
      pixels[i * 4 + 3] = UInt8(a)
    }
    return Frame(width: width, height: height, bytesPerRow: width * 4, pixels: pixels)
  }

  /// Whether any pixel has alpha below 255.
  var hasTranslucentPixels: Bool { words.contains { $0 >> 24 != 0xFF } }
}
