extension PNGImageData {
  /// How many bytes the zlib stream `stream` inflates to, counted without keeping any (no
  /// window, no output: a match adds its length), and stopping as soon as the count passes
  /// `limit`. A stream that is not valid zlib is counted up to where it stops being valid, as far
  /// as a decoder could get. After puff, zlib's reference inflater (`contrib/puff`).
  ///
  /// For the PNGs embedded in Lottie files and SVG pictures: stb_image (rlottie) inflates a PNG's
  /// whole stream into memory before looking at its rows, so within the compressed bound a
  /// header of a few megapixels still let a stream of zeros take gigabytes.
  static func inflatedSize(_ stream: [UInt8], limit: Int) -> Int {
    var reader = BitReader(bytes: stream)
    // CM 8 (deflate), the check bits, no preset dictionary (PNG has none; decoders refuse one).
    guard stream.count >= 2, stream[0] & 0x0F == 8, (Int(stream[0]) << 8 | Int(stream[1])) % 31 == 0,
      stream[1] & 0x20 == 0
    else { return 0 }
    reader.at = 2
    var total = 0
    while total <= limit {
      guard let last = reader.bits(1), let type = reader.bits(2) else { return total }
      switch type {
      case 0:
        reader.alignToByte()
        guard reader.at + 4 <= stream.count else { return total }
        let length = Int(stream[reader.at]) | Int(stream[reader.at + 1]) << 8
        reader.at += 4
        let present = min(length, stream.count - reader.at)
        total += present
        reader.at += present
        guard present == length else { return total }
      case 1:
        guard countBlock(&reader, Huffman.fixedLengths, Huffman.fixedDistances, &total, limit) else { return total }
      case 2:
        guard let (lengths, distances) = dynamicCodes(&reader), countBlock(&reader, lengths, distances, &total, limit)
        else { return total }
      default:
        return total
      }
      if last == 1 { return total }
    }
    return total
  }

  /// Counts one Huffman-coded block into `total`; false when the stream is invalid or ends.
  private static func countBlock(
    _ reader: inout BitReader, _ lengths: Huffman, _ distances: Huffman, _ total: inout Int, _ limit: Int
  ) -> Bool {
    let base = [
      3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
    ]
    let extra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    let distanceExtra = [
      0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]
    while total <= limit {
      guard let symbol = lengths.decode(&reader) else { return false }
      if symbol < 256 {
        total += 1
      } else if symbol == 256 {
        return true
      } else {
        let i = symbol - 257
        guard i < 29, let more = reader.bits(extra[i]), let d = distances.decode(&reader), d < 30,
          reader.bits(distanceExtra[d]) != nil
        else { return false }
        total += base[i] + more
      }
    }
    return true
  }

  /// The literal/length and distance codes of a dynamic block (RFC 1951, 3.2.7).
  private static func dynamicCodes(_ reader: inout BitReader) -> (Huffman, Huffman)? {
    guard let l = reader.bits(5), let d = reader.bits(5), let c = reader.bits(4) else { return nil }
    let literals = l + 257, distances = d + 1
    guard literals <= 286, distances <= 30 else { return nil }
    let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
    var codeLengths = [Int](repeating: 0, count: 19)
    for k in 0..<(c + 4) {
      guard let n = reader.bits(3) else { return nil }
      codeLengths[order[k]] = n
    }
    let lengthCode = Huffman(codeLengths)
    guard lengthCode.isValid else { return nil }
    var lengths: [Int] = []
    lengths.reserveCapacity(literals + distances)
    while lengths.count < literals + distances {
      guard let symbol = lengthCode.decode(&reader) else { return nil }
      switch symbol {
      case 0..<16: lengths.append(symbol)
      case 16:
        guard let previous = lengths.last, let r = reader.bits(2) else { return nil }
        lengths += repeatElement(previous, count: 3 + r)
      case 17:
        guard let r = reader.bits(3) else { return nil }
        lengths += repeatElement(0, count: 3 + r)
      default:
        guard let r = reader.bits(7) else { return nil }
        lengths += repeatElement(0, count: 11 + r)
      }
    }
    guard lengths.count == literals + distances, lengths[256] > 0 else { return nil }
    let literalCode = Huffman(Array(lengths[..<literals])), distanceCode = Huffman(Array(lengths[literals...]))
    guard literalCode.isValid, distanceCode.isValid else { return nil }
    return (literalCode, distanceCode)
  }

  /// Reads a deflate stream's bits, least significant first.
  private struct BitReader {
    var bytes: [UInt8]
    var at = 0
    var buffer = 0
    /// How many bits of `buffer` are the stream's (past its end, `peek` pads with zeros).
    var count = 0

    /// The next `n` bits (at most 24), without consuming them.
    mutating func peek(_ n: Int) -> Int {
      while count < n, at < bytes.count {
        buffer |= Int(bytes[at]) << count
        at += 1
        count += 8
      }
      return buffer & (1 << n - 1)
    }

    /// Consumes `n` bits; false when the stream has fewer.
    mutating func skip(_ n: Int) -> Bool {
      guard n <= count else { return false }
      buffer >>= n
      count -= n
      return true
    }

    mutating func bits(_ n: Int) -> Int? {
      let value = peek(n)
      return skip(n) ? value : nil
    }

    mutating func alignToByte() {
      buffer >>= count % 8
      count -= count % 8
      // Whole bytes still buffered go back to the stream.
      at -= count / 8
      buffer = 0
      count = 0
    }
  }

  /// A canonical Huffman code as a lookup table: the next `maximumLength` bits, reversed as the
  /// stream holds them, give the symbol and its length.
  private struct Huffman {
    /// `symbol << 4 | length`; 0 where no code starts (an incomplete code).
    var table: [UInt32] = []
    var maximumLength = 0
    /// Whether the lengths make a code: false when they over-subscribe it (an incomplete code
    /// is allowed, as zlib allows a single distance code).
    var isValid = true

    /// The code for these code lengths (each 0–15).
    init(_ lengths: [Int]) {
      var counts = [Int](repeating: 0, count: 16)
      for n in lengths { counts[n] += 1 }
      counts[0] = 0
      var left = 1
      for n in 1...15 {
        left = left * 2 - counts[n]
        if left < 0 { isValid = false }
        if counts[n] > 0 { maximumLength = n }
      }
      guard isValid, maximumLength > 0 else { return }
      var next = [Int](repeating: 0, count: 16)
      var code = 0
      for n in 1...15 {
        code = (code + counts[n - 1]) << 1
        next[n] = code
      }
      table = [UInt32](repeating: 0, count: 1 << maximumLength)
      for (symbol, n) in lengths.enumerated() where n > 0 {
        var reversed = 0
        var c = next[n]
        next[n] += 1
        for _ in 0..<n {
          reversed = reversed << 1 | c & 1
          c >>= 1
        }
        for index in stride(from: reversed, to: 1 << maximumLength, by: 1 << n) {
          table[index] = UInt32(symbol) << 4 | UInt32(n)
        }
      }
    }

    func decode(_ reader: inout BitReader) -> Int? {
      guard maximumLength > 0 else { return nil }
      let entry = table[reader.peek(maximumLength)]
      let n = Int(entry & 15)
      guard n > 0, reader.skip(n) else { return nil }
      return Int(entry >> 4)
    }

    static let fixedLengths = Huffman(
      Array(repeating: 8, count: 144) + Array(repeating: 9, count: 112) + Array(repeating: 7, count: 24)
        + Array(repeating: 8, count: 8))
    static let fixedDistances = Huffman(Array(repeating: 5, count: 30))
  }
}
