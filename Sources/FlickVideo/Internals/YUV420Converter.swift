import CYUV

/// BGRA → Y'CbCr 4:2:0 (`yuv420p`), BT.709 matrix, limited range: the frames an MP4 is made
/// from, computed by Flick on the raster workers instead of by ffmpeg's `scale` filter.
///
/// Why Flick converts instead of ffmpeg: the bundled templates' MP4s are encoder-bound, and the
/// conversion was about a quarter of ffmpeg's CPU; here it costs 3–4× less, runs beside the
/// rasterisation, and the pipe carries 1.5 bytes a pixel instead of 4 (docs/benchmarks.md,
/// `make bench-yuv`). Why a reimplementation rather than linking libswscale: the planes must not
/// depend on which ffmpeg build is installed, and Debian's is configured `--enable-gpl`, which
/// linking would extend to the `flick` binary. What it must match: every MP4 stays the file ffmpeg
/// makes when it converts the same frames itself, so the planes are libswscale 5.1's, byte for
/// byte, as below. Pinned by `YUV420ConverterTests` (planes against ffmpeg's `scale` filter at 14
/// sizes; every bundled template's MP4 against ffmpeg converting itself).
///
/// The bytes are those of ffmpeg 5.1's `scale=out_color_matrix=bt709:out_range=tv:
/// flags=bicubic+accurate_rnd+full_chroma_int,format=yuv420p` on x86 and ARM, step for step
/// (libswscale, read in Debian's 5.1.9 source):
/// - luma: the 15-bit RGB → Y of the input stage (`bgr32ToY`), an identity horizontal and
///   vertical filter, and the 8-bit output stage's rounding (`yuv2plane1_8`, flat dither 64);
/// - chroma: two horizontally adjacent pixels summed first (`bgr32ToUV_half`, since the output
///   has half the width), then a vertical bicubic filter halving the height (`initFilter` with
///   B = 0, C = 0.6, MPEG-2 chroma siting: `out_v_chr_pos` 128, taps padded to an even count as
///   the x86 and NEON builds do), applied by `yuv2planeX_8`.
///
/// Every step is integer arithmetic, so the result does not depend on the CPU; ffmpeg's own
/// SIMD paths for these steps compute the same integers (checked against ffmpeg on noise and
/// on every bundled template in `YUV420ConverterTests`). Alpha is ignored, as ffmpeg ignores
/// it for `yuv420p`: the premultiplied bytes are converted as they are.
///
/// One converter serves one thread. It keeps the chroma rows between the two stages in a ring
/// of as many rows as one output row's taps span (about ten), not a whole frame's: the rows are
/// converted in order, each output chroma row as soon as its taps are in, so the work stays in
/// the cache and the converter's memory does not grow with the frame's height.
package final class YUV420Converter {
  /// Frame width and height in pixels (both even, ≥ 2).
  package let width: Int
  package let height: Int
  /// The vertical chroma filter: `taps` coefficients (sum 4096) per output chroma row, applied
  /// to `available[row]` source rows from `start[row]` (taps past the last row have zero
  /// coefficients: initFilter folds them onto it).
  private let start: [Int32]
  private let available: [Int32]
  private let coefficients: [Int16]
  private let taps: Int
  /// Chroma rows after the horizontal stage, 15-bit, `width / 2` values each: source row `y` is
  /// at `y % ringRows`.
  private let ringRows: Int
  private var cb: [Int16]
  private var cr: [Int16]

  /// Bytes of one converted frame: the Y plane, then Cb, then Cr.
  package static func frameSize(width: Int, height: Int) -> Int { width * height + 2 * (width / 2) * (height / 2) }

  /// Whether frames of `width × height` pixels can be converted: even sides, at least 2.
  package static func accepts(width: Int, height: Int) -> Bool {
    width >= 2 && height >= 2 && width % 2 == 0 && height % 2 == 0
  }

  /// A converter for `width × height` frames (``accepts(width:height:)``).
  package init(width: Int, height: Int) {
    precondition(Self.accepts(width: width, height: height), "yuv420p needs even sides")
    self.width = width
    self.height = height
    let filter = Self.chromaFilter(sourceRows: height)
    // flick_yuv420_frame takes up to 64 taps a row; the bicubic halving has at most ten.
    precondition(filter.taps <= 64, "a vertical chroma filter of \(filter.taps) taps")
    start = filter.start.map { Int32($0) }
    available = filter.start.map { Int32(min(filter.taps, height - $0)) }
    coefficients = filter.coefficients
    taps = filter.taps
    // The ring holds every row from an output row's first tap to the last row converted so far.
    var converted = 0
    var span = 1
    for (first, count) in zip(filter.start, available) {
      converted = max(converted, first + Int(count))
      span = max(span, converted - first)
    }
    ringRows = span
    cb = [Int16](repeating: 0, count: (width / 2) * span)
    cr = cb
  }

  /// Converts the packed BGRA `pixels` (`width × height × 4` bytes) into `output`
  /// (``frameSize(width:height:)`` bytes).
  package func convert(_ pixels: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<UInt8>) {
    precondition(pixels.count == width * height * 4 && output.count == Self.frameSize(width: width, height: height))
    guard let base = output.baseAddress, let source = pixels.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
      return
    }
    let m = Self.matrix
    let (width, height, taps, ringRows) = (
      Int32(self.width), Int32(self.height), Int32(self.taps), Int32(self.ringRows)
    )
    // The rows' loop is C's (flick_yuv420_frame): in Swift, an unoptimised test build paid
    // exclusivity checks and generic iteration for every row.
    start.withUnsafeBufferPointer { start in
      available.withUnsafeBufferPointer { available in
        coefficients.withUnsafeBufferPointer { coefficients in
          cb.withUnsafeMutableBufferPointer { cb in
            cr.withUnsafeMutableBufferPointer { cr in
              var filter = flick_yuv_chroma_filter(
                start: start.baseAddress, available: available.baseAddress, coefficients: coefficients.baseAddress,
                taps: taps, ring_rows: ringRows)
              flick_yuv420_frame(source, width, height, m.y, m.u, m.v, &filter, cb.baseAddress, cr.baseAddress, base)
            }
          }
        }
      }
    }
  }
}

extension YUV420Converter {
  /// Caps the vector width the C loops use (256: AVX2 where the CPU has it, 128: SSE2, 0: plain
  /// C; 256 by default) and returns the width now in use. Every width gives the same bytes; tests
  /// compare them.
  @discardableResult
  package static func limitVectors(_ bits: Int) -> Int { Int(flick_yuv420_limit_vectors(Int32(bits))) }

  /// The 15-bit RGB → Y'CbCr coefficients for BT.709, limited range, as libswscale's
  /// `fill_rgb2yuv_table` derives them from its `ff_yuv2rgb_coeffs` entry (all within ±2^15).
  struct Matrix {
    var y, u, v: flick_yuv_coefficients
  }

  static let matrix: Matrix = {
    // ITU-R BT.709 in libswscale's YUV → RGB table: crv, cbu, cgu, cgv (16.16).
    let vr: Int64 = 117489, ub: Int64 = 138438, ug: Int64 = -13975, vg: Int64 = -34925
    let one: Int64 = 65536
    let cy = one * 255 / 219  // limited range
    let w = roundedDivision(one * one * ug, ub)
    let v = roundedDivision(one * one * vg, vr)
    let z = one * one - w - v
    let cY = roundedDivision(cy * z, one)
    let cU = roundedDivision(ub * z, one)
    let cV = roundedDivision(vr * z, one)
    let shift: Int64 = 1 << 15
    func c(_ r: Int64, _ g: Int64, _ b: Int64) -> flick_yuv_coefficients {
      flick_yuv_coefficients(r: Int16(r), g: Int16(g), b: Int16(b))
    }
    return Matrix(
      y: c(-roundedDivision(shift * v, cY), roundedDivision(shift * one * one, cY), -roundedDivision(shift * w, cY)),
      u: c(
        roundedDivision(shift * v, cU), -roundedDivision(shift * one * one, cU), roundedDivision(shift * (z + w), cU)),
      v: c(
        roundedDivision(shift * (v + z), cV), -roundedDivision(shift * one * one, cV), roundedDivision(shift * w, cV)))
  }()

  /// C's `ROUNDED_DIV`: halves away from zero, then truncating division.
  static func roundedDivision(_ a: Int64, _ b: Int64) -> Int64 {
    (a >= 0 ? a + (b >> 1) : a - (b >> 1)) / b
  }

  /// libswscale's `initFilter` for the vertical chroma filter of a `sourceRows` → `sourceRows / 2`
  /// bicubic scale (B = 0, C = 0.6): filter size 1 + 4 × 2, at most `sourceRows − 2`; taps that
  /// add up to under 0.2 % trimmed from both ends; padded to an even count; taps outside the
  /// image folded onto the edge rows; normalised to 4096 with the rounding error carried along.
  static func chromaFilter(sourceRows srcW: Int) -> (start: [Int], coefficients: [Int16], taps: Int) {
    let dstW = srcW / 2
    let xInc = Int64(((srcW << 16) + (dstW >> 1)) / dstW)
    let fone: Int64 = 1 << (54 - min(log2(srcW / dstW), 8))
    // MPEG-2 siting: the chroma row sits between its two luma rows (both positions 128 after
    // `get_local_pos`: source chroma not subsampled, destination `out_v_chr_pos` 128 halved).
    let srcPos: Int64 = 128, dstPos: Int64 = 128
    var filterSize = xInc <= 1 << 16 ? 1 + 4 : 1 + (4 * srcW + dstW - 1) / dstW
    filterSize = max(min(filterSize, srcW - 2), 1)
    var filter = [Int64](repeating: 0, count: dstW * filterSize)
    var position = [Int](repeating: 0, count: dstW)
    let b: Int64 = 0
    let c: Int64 = Int64(0.6 * Double(1 << 24))
    var xDstInSrc = ((dstPos &* xInc) >> 7) - ((srcPos &* 0x10000) >> 7)
    for i in 0..<dstW {
      var xx = Int((xDstInSrc - Int64(filterSize - 2) * (1 << 16)) / (1 << 17))
      position[i] = xx
      for j in 0..<filterSize {
        var d = abs(Int64(xx) * (1 << 17) - xDstInSrc) << 13
        if xInc > 1 << 16 { d = d * Int64(dstW) / Int64(srcW) }
        var coefficient: Int64
        if d >= 1 << 31 {
          coefficient = 0
        } else {
          let dd = (d &* d) >> 30
          let ddd = (dd &* d) >> 30
          if d < 1 << 30 {
            coefficient =
              (12 * (1 << 24) - 9 * b - 6 * c) &* ddd &+ (-18 * (1 << 24) + 12 * b + 6 * c) &* dd
              &+ (6 * (1 << 24) - 2 * b) &* (1 << 30)
          } else {
            coefficient =
              (-b - 6 * c) &* ddd &+ (6 * b + 30 * c) &* dd &+ (-12 * b - 48 * c) &* d
              &+ (8 * b + 24 * c) &* (1 << 30)
          }
        }
        coefficient /= (1 << 54) / fone
        filter[i * filterSize + j] = coefficient
        xx += 1
      }
      xDstInSrc += 2 * xInc
    }

    // Trim near-zero taps: from the left by shifting (keeping the starts increasing), from
    // the right by counting.
    let cutOff = 0.002 * Double(fone)
    var minFilterSize = 0
    for i in stride(from: dstW - 1, through: 0, by: -1) {
      var size = filterSize
      var sum: Int64 = 0
      for _ in 0..<filterSize {
        sum += abs(filter[i * filterSize])
        if Double(sum) > cutOff { break }
        if i < dstW - 1 && position[i] >= position[i + 1] { break }
        for k in 1..<filterSize { filter[i * filterSize + k - 1] = filter[i * filterSize + k] }
        filter[i * filterSize + filterSize - 1] = 0
        position[i] += 1
      }
      sum = 0
      for j in stride(from: filterSize - 1, to: 0, by: -1) {
        sum += abs(filter[i * filterSize + j])
        if Double(sum) > cutOff { break }
        size -= 1
      }
      minFilterSize = max(minFilterSize, size)
    }
    // x86 and NEON builds align vertical filters to two taps (one stays one).
    let align = minFilterSize == 1 ? 1 : 2
    let taps = (minFilterSize + align - 1) & ~(align - 1)
    var aligned = [Int64](repeating: 0, count: dstW * taps)
    for i in 0..<dstW {
      for j in 0..<taps where j < filterSize { aligned[i * taps + j] = filter[i * filterSize + j] }
    }

    // Fold taps outside the image onto the first and last rows.
    for i in 0..<dstW {
      if position[i] < 0 {
        for j in 1..<max(taps, 1) {
          let left = max(j + position[i], 0)
          aligned[i * taps + left] += aligned[i * taps + j]
          aligned[i * taps + j] = 0
        }
        position[i] = 0
      }
      if position[i] + taps > srcW {
        let shift = position[i] + min(taps - srcW, 0)
        var accumulated: Int64 = 0
        for j in stride(from: taps - 1, through: 0, by: -1) where position[i] + j >= srcW {
          accumulated += aligned[i * taps + j]
          aligned[i * taps + j] = 0
        }
        for j in stride(from: taps - 1, through: 0, by: -1) {
          aligned[i * taps + j] = j < shift ? 0 : aligned[i * taps + j - shift]
        }
        position[i] -= shift
        aligned[i * taps + srcW - 1 - position[i]] += accumulated
      }
    }

    // Normalise each row to 4096, carrying the rounding error to the next tap.
    let one: Int64 = 1 << 12
    var coefficients = [Int16](repeating: 0, count: dstW * taps)
    for i in 0..<dstW {
      var sum: Int64 = 0
      for j in 0..<taps { sum += aligned[i * taps + j] }
      sum = (sum + one / 2) / one
      if sum == 0 { sum = 1 }
      var error: Int64 = 0
      for j in 0..<taps {
        let v = aligned[i * taps + j] + error
        let rounded = roundedDivision(v, sum)
        coefficients[i * taps + j] = Int16(truncatingIfNeeded: rounded)
        error = v - rounded * sum
      }
    }
    return (position, coefficients, taps)
  }

  /// FFmpeg's `av_log2`: the index of the highest set bit (0 for 0).
  private static func log2(_ value: Int) -> Int { value <= 0 ? 0 : Int.bitWidth - 1 - value.leadingZeroBitCount }
}
