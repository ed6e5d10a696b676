import Foundation

/// A GIF's 256-colour palette computed from the frames as they are rendered: the palette
/// ffmpeg 5.1's `palettegen=stats_mode=diff` makes (default options: 256 colours, one entry
/// reserved for transparency, alpha not used), entry for entry, so the GIF that `paletteuse`
/// encodes with it is the same file, without a second ffmpeg reading every frame through a pipe.
///
/// Why Flick computes it: `palettegen` ran as a second process reading every frame through a pipe
/// and hashing every changed pixel while the raster workers rendered on the same two cores; it was
/// the larger half of a GIF's time. Here the statistics cost the delivery thread about 5 % of a
/// GIF render's CPU samples (docs/benchmarks.md, "Short clips"). What it must match: ffmpeg 5.1's palette,
/// entry for entry, including its quirks (the previous frame's colour counted, its unstable
/// quicksort), so every GIF stays byte-identical to ffmpeg's own two passes (with another ffmpeg,
/// `--gif-palette ffmpeg` runs its own `palettegen`). Pinned by `GIFPaletteTests` (against
/// `palettegen` on frames built for each branch of the median cut) and `GIFOnePassTests` (whole
/// GIFs against ffmpeg's two passes).
///
/// The statistics: every pixel of the first frame, then, for each later frame, every pixel that
/// differs from the frame before (all four bytes compared) with the colour it had there,
/// counted per distinct 32-bit colour, alpha included. The palette: Heckbert's median cut as
/// `palettegen` runs it. Colours are listed by ffmpeg's hash bucket (the low five bits of red,
/// green and blue) and, within a bucket, by first appearance; the box to cut is the one with the
/// greatest weighted squared RGB spread; it is sorted, with ffmpeg's own quicksort
/// (``quicksort(_:_:)``, not stable, so its order of equal keys matters), along its widest axis
/// (green, then red, then blue on ties) and cut after the first colour where the running weight
/// exceeds half. Each box gives its weighted mean, opaque; the
/// means are sorted, the last one repeats to fill 255 entries, and entry 255 is the transparency
/// colour (lime, alpha 0).
///
/// Memory is 12 bytes and two table slots (8 bytes) per distinct colour, about what
/// `palettegen` needs (16 bytes and its buckets' growth), and the frame appended last; time is one comparison per pixel and one lookup per changed pixel, with
/// runs of one colour looked up once.
struct GIFPalette {
  /// Entries in the palette image (`palettegen`'s 16 × 16 output).
  static let size = 256
  /// Entry 255 when nothing else fills it: `palettegen`'s default transparency colour, lime
  /// with alpha 0 (`0xAARRGGBB`).
  static let transparency: UInt32 = 0x0000_FF00

  /// Distinct colours in first-appearance order (`0xAARRGGBB`, as BGRA bytes read little-endian).
  private var colors: [UInt32] = []
  /// How many counted pixels had each colour of ``colors``.
  private var counts: [UInt64] = []
  /// Open-addressing table: an index into ``colors`` plus one, or 0 for an empty slot (room for
  /// 2³² − 1 colours, which would take 86 GB, far past any memory cap).
  private var table = [UInt32](repeating: 0, count: 1 << 12)
  /// The frame ``append(_:)`` or ``append(copying:)`` added last: the next one is compared with it.
  private var last: [UInt8]?

  /// Adds `frame` after the frames appended before it (``add(_:previous:)``, the last of them as
  /// `previous`) and keeps it, without a copy, for the next.
  mutating func append(_ frame: [UInt8]) {
    let previous = last
    frame.withUnsafeBytes { new in
      if let previous {
        previous.withUnsafeBytes { add(new, previous: $0) }
      } else {
        add(new, previous: nil)
      }
    }
    last = frame
  }

  /// ``append(_:)`` of a frame that is only lent (a spool's replay): it is copied into the buffer
  /// of the frame it follows, so a run of frames allocates one.
  mutating func append(copying frame: UnsafeRawBufferPointer) {
    guard var kept = last, kept.count == frame.count else {
      append(Array(frame))
      return
    }
    last = nil  // `kept` is then the buffer's only owner: the copy below writes in place.
    kept.withUnsafeBytes { add(frame, previous: $0) }
    kept.withUnsafeMutableBytes { $0.copyMemory(from: frame) }
    last = kept
  }

  /// Adds one frame (packed BGRA, `width × 4` bytes a row) to the statistics, given the frame
  /// added before it (same size; nil for the first). As `palettegen`'s diff mode does, the first
  /// frame counts every pixel, and each later one counts, where a pixel differs, the colour that
  /// pixel had in the frame *before* (so the last frame's changes are never counted: ffmpeg's
  /// arithmetic, kept for the same palette).
  private mutating func add(_ frame: UnsafeRawBufferPointer, previous: UnsafeRawBufferPointer?) {
    precondition(frame.count % 4 == 0 && previous.map { $0.count == frame.count } ?? true)
    let pixels = frame.count / 4
    guard pixels > 0, let new = frame.bindMemory(to: UInt32.self).baseAddress else { return }
    // The colour last looked up (none yet: above every colour), its index, and how many pixels of
    // it are not yet added to its count: a run of one colour costs a comparison.
    var lastColor = UInt64.max
    var lastIndex = 0
    var run: UInt64 = 0
    @inline(__always) func tally(_ color: UInt32) {
      if UInt64(color) == lastColor {
        run += 1
      } else {
        if run > 0 { counts[lastIndex] &+= run }
        lastColor = UInt64(color)
        lastIndex = index(of: color)
        run = 1
      }
    }
    if let previous, let old = previous.bindMemory(to: UInt32.self).baseAddress {
      // Eight pixels compared at once (32 bytes by memcmp, which an optimised build expands into
      // a few vector loads and an unoptimised one leaves to the C library); only blocks with a
      // difference are looked at pixel by pixel.
      var x = 0
      while x < pixels {
        let end = x + 8 <= pixels ? x + 8 : pixels
        if end - x == 8 && memcmp(new + x, old + x, 32) == 0 {
          x = end
          continue
        }
        while x < end {
          if new[x] != old[x] { tally(UInt32(littleEndian: old[x])) }
          x += 1
        }
      }
    } else {
      var x = 0
      while x < pixels {
        tally(UInt32(littleEndian: new[x]))
        x += 1
      }
    }
    if run > 0 { counts[lastIndex] &+= run }
  }

  /// The index of `color` in ``colors``, adding it with a count of 0 when new.
  private mutating func index(of color: UInt32) -> Int {
    let mask = table.count - 1
    var slot = Self.slot(color, mask)
    while true {
      let entry = table[slot]
      if entry == 0 { break }
      if colors[Int(entry) - 1] == color { return Int(entry) - 1 }
      slot = (slot + 1) & mask
    }
    colors.append(color)
    counts.append(0)
    table[slot] = UInt32(colors.count)
    if colors.count * 2 > table.count { grow() }
    return colors.count - 1
  }

  /// Where `color` starts its probe in a table of `mask + 1` slots (Fibonacci hashing).
  private static func slot(_ color: UInt32, _ mask: Int) -> Int {
    Int(truncatingIfNeeded: (UInt64(color) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
  }

  /// Doubles the table and enters every colour again.
  private mutating func grow() {
    table = [UInt32](repeating: 0, count: table.count * 2)
    let mask = table.count - 1
    for (i, color) in colors.enumerated() {
      var slot = Self.slot(color, mask)
      while table[slot] != 0 { slot = (slot + 1) & mask }
      table[slot] = UInt32(i + 1)
    }
  }

  /// `palettegen`'s hash bucket of a colour: the low five bits of red, green and blue.
  private static func bucket(_ color: UInt32) -> UInt32 {
    (color >> 16 & 31) << 10 | (color >> 8 & 31) << 5 | (color & 31)
  }

  /// One box of the median cut: a range of ``refs``.
  private struct Box {
    var start: Int
    var count: Int
    /// The weighted mean colour, opaque (`0xFFRRGGBB`).
    var color: UInt32
    /// The weighted squared spread around ``color``, or nil until computed.
    var variance: Int64?
    /// The axis the range is sorted by (1 red, 2 green, 3 blue), or 0 for none.
    var sortedBy: Int
    /// Its positions in ``refs``.
    var range: Range<Int> { start..<(start + count) }
  }

  /// The palette: 256 colours (`0xAARRGGBB`), in the order of `palettegen`'s image; nil before
  /// any pixel was counted.
  func palette() -> [UInt32]? {
    guard !colors.isEmpty else { return nil }
    // Colours by bucket, then first appearance: the order of palettegen's hash table walk (a
    // counting sort, stable, so first appearance stays the order within a bucket).
    var starts = [Int](repeating: 0, count: (1 << 15) + 1)
    for color in colors { starts[Int(Self.bucket(color)) + 1] += 1 }
    for b in 1..<starts.count { starts[b] += starts[b - 1] }
    var refs = [Int](repeating: 0, count: colors.count)
    for (i, color) in colors.enumerated() {
      let b = Int(Self.bucket(color))
      refs[starts[b]] = i
      starts[b] += 1
    }
    let maxBoxes = Self.size - 1  // one entry is reserved for transparency
    var boxes = [Box(start: 0, count: refs.count, color: 0, variance: nil, sortedBy: 0)]
    boxes[0].color = mean(refs, boxes[0])
    var current: Int? = 0
    while let id = current, boxes[id].count > 1 {
      var box = boxes[id]
      var low: (UInt8, UInt8, UInt8) = (255, 255, 255)
      var high: (UInt8, UInt8, UInt8) = (0, 0, 0)
      var weight: UInt64 = 0
      for i in box.range {
        let c = colors[refs[i]]
        let r = UInt8(c >> 16 & 255), g = UInt8(c >> 8 & 255), b = UInt8(c & 255)
        low = (min(low.0, r), min(low.1, g), min(low.2, b))
        high = (max(high.0, r), max(high.1, g), max(high.2, b))
        weight += counts[refs[i]]
      }
      let rr = Int(high.0) - Int(low.0), gr = Int(high.1) - Int(low.1), br = Int(high.2) - Int(low.2)
      var longest = 2
      if br >= rr && br >= gr { longest = 3 }
      if rr >= gr && rr >= br { longest = 1 }
      if gr >= rr && gr >= br { longest = 2 }
      if box.sortedBy != longest {
        Self.sort(&refs, box.range, colors, shift: UInt32(8 * (3 - longest)))
        box.sortedBy = longest
      }
      // The cut: after the first colour where the running weight exceeds half, keeping at
      // least one colour on each side.
      let median = (weight + 1) >> 1
      var running: UInt64 = 0
      var cut = box.start
      while cut < box.start + box.count - 2 {
        running += counts[refs[cut]]
        if running > median { break }
        cut += 1
      }
      var right = Box(
        start: cut + 1, count: box.start + box.count - (cut + 1), color: 0, variance: nil, sortedBy: box.sortedBy)
      box.count -= right.count
      box.color = mean(refs, box)
      right.color = mean(refs, right)
      box.variance = nil
      boxes[id] = box
      boxes.append(right)
      current = nextBoxToCut(&boxes, refs, limit: maxBoxes)
    }
    var palette = boxes.map(\.color).sorted()
    guard let last = palette.last else { preconditionFailure("the median cut starts with one box") }
    while palette.count < Self.size { palette.append(last) }
    palette[Self.size - 1] = Self.transparency
    return palette
  }

  /// The box with the greatest spread among those of two colours or more, or nil when there is
  /// none or the palette is full (palettegen's `get_next_box_id_to_split`).
  private func nextBoxToCut(_ boxes: inout [Box], _ refs: [Int], limit: Int) -> Int? {
    guard boxes.count < limit else { return nil }
    var best: Int?
    var most: Int64 = -1
    for id in boxes.indices where boxes[id].count >= 2 {
      let variance: Int64
      if let known = boxes[id].variance {
        variance = known
      } else {
        let mean = boxes[id].color
        var sum: Int64 = 0
        for i in boxes[id].range {
          let c = colors[refs[i]]
          let dr = Int64(c >> 16 & 255) - Int64(mean >> 16 & 255)
          let dg = Int64(c >> 8 & 255) - Int64(mean >> 8 & 255)
          let db = Int64(c & 255) - Int64(mean & 255)
          sum &+= (dr * dr + dg * dg + db * db) &* Int64(bitPattern: counts[refs[i]])
        }
        boxes[id].variance = sum
        variance = sum
      }
      if variance > most {
        best = id
        most = variance
      }
    }
    return best
  }

  /// The weighted mean of a box's colours, each channel rounded down, opaque.
  private func mean(_ refs: [Int], _ box: Box) -> UInt32 {
    var r: UInt64 = 0, g: UInt64 = 0, b: UInt64 = 0, total: UInt64 = 0
    for i in box.range {
      let c = UInt64(colors[refs[i]])
      let n = counts[refs[i]]
      r &+= (c >> 16 & 255) &* n
      g &+= (c >> 8 & 255) &* n
      b &+= (c & 255) &* n
      total &+= n
    }
    return 0xFF00_0000 | UInt32(r / total) << 16 | UInt32(g / total) << 8 | UInt32(b / total)
  }

  /// Sorts `refs[range]` (colour indices) by one channel of their colour, `colors[i] >> shift
  /// & 255`, exactly as ffmpeg's `AV_QSORT` orders them (``quicksort(_:_:)``): each index is
  /// packed under its key, so the sort moves and compares plain integers.
  private static func sort(_ refs: inout [Int], _ range: Range<Int>, _ colors: [UInt32], shift: UInt32) {
    var packed = refs[range].map { UInt64(colors[$0] >> shift & 255) << 32 | UInt64($0) }
    packed.withUnsafeMutableBufferPointer { buffer in
      if let base = buffer.baseAddress { quicksort(base, buffer.count) }
    }
    for (offset, value) in packed.enumerated() { refs[range.lowerBound + offset] = Int(value & 0xFFFF_FFFF) }
  }

  /// Sorts `count` values at `base` by their top 32 bits (the key; the rest rides along) as
  /// ffmpeg's `AV_QSORT` does (libavutil/qsort.h: median of three, an explicit stack, a check
  /// for an already sorted range). It is not stable, so the order it leaves equal keys in is
  /// part of the palette `palettegen` makes, and this follows it step for step.
  static func quicksort(_ base: UnsafeMutablePointer<UInt64>, _ count: Int) {
    guard count > 0 else { return }
    @inline(__always) func cmp(_ a: UnsafeMutablePointer<UInt64>, _ b: UnsafeMutablePointer<UInt64>) -> Int {
      Int(truncatingIfNeeded: a.pointee >> 32) - Int(truncatingIfNeeded: b.pointee >> 32)
    }
    @inline(__always) func swapAt(_ a: UnsafeMutablePointer<UInt64>, _ b: UnsafeMutablePointer<UInt64>) {
      let t = a.pointee
      a.pointee = b.pointee
      b.pointee = t
    }
    var stack: [(UnsafeMutablePointer<UInt64>, UnsafeMutablePointer<UInt64>)] = [(base, base + count - 1)]
    while let (first, last) = stack.popLast() {
      var start = first
      var end = last
      while start < end {
        if start < end - 1 {
          var checkSort = false
          var right = end - 2
          var left = start + 1
          var mid = start + ((end - start) >> 1)
          if cmp(start, end) > 0 {
            if cmp(end, mid) > 0 { swapAt(start, mid) } else { swapAt(start, end) }
          } else {
            if cmp(start, mid) > 0 { swapAt(start, mid) } else { checkSort = true }
          }
          if cmp(mid, end) > 0 {
            swapAt(mid, end)
            checkSort = false
          }
          if start == end - 2 { break }
          swapAt(end - 1, mid)
          while left <= right {
            while left <= right && cmp(left, end - 1) < 0 { left += 1 }
            while left <= right && cmp(right, end - 1) > 0 { right -= 1 }
            if left <= right {
              swapAt(left, right)
              left += 1
              right -= 1
            }
          }
          swapAt(end - 1, left)
          if checkSort && (mid == left - 1 || mid == left) {
            mid = start
            while mid < end && cmp(mid, mid + 1) <= 0 { mid += 1 }
            if mid == end { break }
          }
          if end - left < left - start {
            stack.append((start, right))
            start = left + 1
          } else {
            stack.append((left + 1, end))
            end = right
          }
        } else {
          if cmp(start, end) > 0 { swapAt(start, end) }
          break
        }
      }
    }
  }

  /// The palette (``size`` entries) as a 16 × 16 PAM image (Netpbm's `P7`, `RGB_ALPHA`), the
  /// file the GIF's encoding pass reads: ``image(_:)``'s pixels in RGBA order, which ffmpeg's
  /// PAM decoder gives back exactly.
  static func pam(_ palette: [UInt32]) -> [UInt8] {
    var rgba = image(palette)
    for pixel in stride(from: 0, to: rgba.count, by: 4) { rgba.swapAt(pixel, pixel + 2) }
    return Array("P7\nWIDTH 16\nHEIGHT 16\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n".utf8) + rgba
  }

  /// The first frame of an encoding pass that reads the palette first
  /// (``FFmpegCommand/readsPaletteFirst``): `width × height` BGRA pixels (both at least 16),
  /// ``image(_:)``'s 16 rows of 16 in the top-left corner, every other byte 0.
  static func frame(_ palette: [UInt32], width: Int, height: Int) -> [UInt8] {
    precondition(width >= 16 && height >= 16 && palette.count == size, "a palette frame is at least 16 × 16")
    var bytes = [UInt8](repeating: 0, count: width * height * 4)
    let image = image(palette)
    for row in 0..<16 {
      bytes.replaceSubrange((row * width * 4)..<(row * width * 4 + 64), with: image[(row * 64)..<(row * 64 + 64)])
    }
    return bytes
  }

  /// The palette as `palettegen`'s 16 × 16 image in BGRA bytes (what `paletteuse` reads).
  static func image(_ palette: [UInt32]) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(palette.count * 4)
    for c in palette {
      bytes += [UInt8(c & 255), UInt8(c >> 8 & 255), UInt8(c >> 16 & 255), UInt8(c >> 24)]
    }
    return bytes
  }
}
