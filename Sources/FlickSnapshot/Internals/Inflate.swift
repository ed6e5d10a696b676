import FlickMotion
/// A zlib (RFC 1950) / DEFLATE (RFC 1951) decoder in Swift, so that PNG pixel data is decoded
/// and checked by Flick itself: every block, every code, the stream's end and its Adler-32.
///
/// The output never grows beyond `limit` bytes (the size the PNG header promises), so a stream
/// that inflates to more than the image needs is refused before it is fully expanded.
enum Inflate {
  struct Failure: Error { var message: String }

  /// Inflates a zlib stream that must produce exactly `expected` bytes.
  ///
  /// The output buffer is reserved at `expected` bytes but only the pages written are touched, so
  /// a header promising much over a tiny stream costs no memory before it is found short.
  static func zlib(_ input: [UInt8], expected: Int) throws(Failure) -> [UInt8] {
    guard input.count >= 6 else { throw Failure(message: "zlib stream too short (\(input.count) bytes)") }
    let cmf = Int(input[0]), flg = Int(input[1])
    guard cmf & 0x0F == 8, cmf >> 4 <= 7 else {
      throw Failure(message: "not a deflate zlib stream (CMF \(quoted: cmf))")
    }
    guard (cmf << 8 | flg) % 31 == 0 else { throw Failure(message: "damaged zlib header (check bits)") }
    guard flg & 0x20 == 0 else { throw Failure(message: "zlib preset dictionary is not allowed in PNG") }
    var failure: Failure?
    var end = 0
    let out = [UInt8](unsafeUninitializedCapacity: max(1, expected)) { buffer, count in
      input.withUnsafeBufferPointer { source in
        var state = State(input: source, start: 2, output: buffer, limit: expected)
        do throws(Failure) {
          try state.run()
        } catch {
          failure = error
        }
        count = state.produced
        end = state.bytePosition
      }
    }
    if let failure { throw failure }
    // The Adler-32 follows the last block, byte-aligned.
    guard end + 4 <= input.count else { throw Failure(message: "zlib stream ends before its Adler-32 checksum") }
    let stored =
      UInt32(input[end]) << 24 | UInt32(input[end + 1]) << 16 | UInt32(input[end + 2]) << 8
      | UInt32(input[end + 3])
    guard out.count == expected else {
      throw Failure(message: "image data too short: \(out.count) of \(quoted: expected) bytes (too few rows)")
    }
    guard adler32(out) == stored else { throw Failure(message: "zlib Adler-32 checksum mismatch (damaged data)") }
    guard end + 4 == input.count else {
      throw Failure(message: "\(input.count - end - 4) bytes of extra data after the zlib stream")
    }
    return out
  }

  static func adler32(_ bytes: [UInt8]) -> UInt32 {
    var a: UInt32 = 1, b: UInt32 = 0
    var i = 0
    let n = bytes.count
    bytes.withUnsafeBufferPointer { p in
      while i < n {
        let end = min(n, i + 5552)
        while i < end {
          a &+= UInt32(p[i])
          b &+= a
          i += 1
        }
        a %= 65521
        b %= 65521
      }
    }
    return b << 16 | a
  }

  /// A canonical Huffman code as a lookup table indexed by the next `bits` input bits
  /// (least significant first): entry = symbol << 4 | code length; 0 = no such code.
  struct Table {
    var entries: [UInt32]
    var bits: Int

    init(lengths: [Int]) throws(Failure) {
      let maxLength = lengths.max() ?? 0
      bits = max(1, maxLength)
      entries = [UInt32](repeating: 0, count: 1 << bits)
      guard maxLength > 0 else { return }
      var count = [Int](repeating: 0, count: 16)
      for l in lengths where l > 0 { count[l] += 1 }
      // Over-subscribed codes are invalid; incomplete ones are allowed (a single distance code).
      var left = 1
      for l in 1...15 {
        left <<= 1
        left -= count[l]
        guard left >= 0 else { throw Failure(message: "invalid Huffman code (over-subscribed)") }
      }
      var next = [Int](repeating: 0, count: 16)
      var code = 0
      for l in 1...15 {
        next[l] = code
        code = (code + count[l]) << 1
      }
      for (symbol, l) in lengths.enumerated() where l > 0 {
        let c = next[l]
        next[l] += 1
        var reversed = 0
        for k in 0..<l where c & (1 << k) != 0 { reversed |= 1 << (l - 1 - k) }
        var i = reversed
        let entry = UInt32(symbol) << 4 | UInt32(l)
        while i < entries.count {
          entries[i] = entry
          i += 1 << l
        }
      }
    }
  }

  static let lengthBase: [Int] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
  ]
  static let lengthExtra: [Int] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
  ]
  static let distanceBase: [Int] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
    8193, 12289, 16385, 24577,
  ]
  static let distanceExtra: [Int] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
  ]
  static let fixedLiterals: Table = try! Table(
    lengths: (0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 })
  static let fixedDistances: Table = try! Table(lengths: [Int](repeating: 5, count: 30))

  /// Decoding state over borrowed buffers (valid only inside ``zlib(_:expected:)``).
  struct State {
    let input: UnsafeBufferPointer<UInt8>
    var position: Int
    var bitBuffer: UInt64 = 0
    var bitCount = 0
    let out: UnsafeMutableBufferPointer<UInt8>
    var produced = 0
    let limit: Int

    init(input: UnsafeBufferPointer<UInt8>, start: Int, output: UnsafeMutableBufferPointer<UInt8>, limit: Int) {
      self.input = input
      self.position = start
      self.out = output
      self.limit = min(limit, output.count)
    }

    /// The input byte after the last bit consumed (whole bytes left in the bit buffer returned).
    var bytePosition: Int { position - bitCount / 8 }

    /// Tops the bit buffer up to at least 56 bits while input lasts.
    @inline(__always) mutating func refill() {
      while bitCount <= 56 && position < input.count {
        bitBuffer |= UInt64(input[position]) << UInt64(bitCount)
        position += 1
        bitCount += 8
      }
    }

    @inline(__always) mutating func bits(_ n: Int) throws(Failure) -> Int {
      if n == 0 { return 0 }
      if bitCount < n {
        refill()
        guard bitCount >= n else { throw Failure(message: "zlib stream is truncated (damaged data)") }
      }
      let v = Int(bitBuffer & ((1 << UInt64(n)) - 1))
      bitBuffer >>= UInt64(n)
      bitCount -= n
      return v
    }

    @inline(__always) mutating func decode(_ entries: UnsafeBufferPointer<UInt32>, _ width: Int) throws(Failure) -> Int
    {
      if bitCount < width { refill() }
      let entry = entries[Int(bitBuffer & ((1 << UInt64(width)) - 1))]
      let length = Int(entry & 0xF)
      guard length > 0, length <= bitCount else {
        throw Failure(message: "invalid Huffman code in zlib stream (damaged data)")
      }
      bitBuffer >>= UInt64(length)
      bitCount -= length
      return Int(entry >> 4)
    }

    mutating func run() throws(Failure) {
      var last = false
      while !last {
        last = try bits(1) == 1
        switch try bits(2) {
        case 0: try stored()
        case 1: try codes(Inflate.fixedLiterals, Inflate.fixedDistances)
        case 2:
          let (lit, dist) = try dynamicTables()
          try codes(lit, dist)
        default: throw Failure(message: "invalid deflate block type 3 (damaged data)")
        }
      }
    }

    mutating func stored() throws(Failure) {
      // Drop to a byte boundary.
      let skip = bitCount % 8
      bitBuffer >>= UInt64(skip)
      bitCount -= skip
      let len = try bits(16), nlen = try bits(16)
      guard len == (~nlen & 0xFFFF) else {
        throw Failure(message: "stored deflate block length check fails (damaged data)")
      }
      guard produced + len <= limit else { throw tooMuch() }
      // Whole bytes still in the bit buffer come first.
      var remaining = len
      while remaining > 0 && bitCount >= 8 {
        out[produced] = UInt8(try bits(8))
        produced += 1
        remaining -= 1
      }
      guard position + remaining <= input.count else {
        throw Failure(message: "zlib stream is truncated (damaged data)")
      }
      for k in 0..<remaining { out[produced + k] = input[position + k] }
      produced += remaining
      position += remaining
    }

    func tooMuch() -> Failure {
      Failure(message: "image data longer than the \(limit) bytes the header promises (damaged data)")
    }

    mutating func dynamicTables() throws(Failure) -> (Table, Table) {
      let hlit = try bits(5) + 257, hdist = try bits(5) + 1, hclen = try bits(4) + 4
      guard hlit <= 286, hdist <= 30 else { throw Failure(message: "invalid deflate code counts (damaged data)") }
      let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
      var codeLengths = [Int](repeating: 0, count: 19)
      for i in 0..<hclen { codeLengths[order[i]] = try bits(3) }
      let lengthTable = try Table(lengths: codeLengths)
      var lengths: [Int] = []
      lengths.reserveCapacity(hlit + hdist)
      try lengthTable.entries.withUnsafeBufferPointer { entries throws(Failure) in
        while lengths.count < hlit + hdist {
          let symbol = try decode(entries, lengthTable.bits)
          switch symbol {
          case 0...15: lengths.append(symbol)
          case 16:
            guard let previous = lengths.last else {
              throw Failure(message: "invalid deflate length repeat (damaged data)")
            }
            lengths += [Int](repeating: previous, count: 3 + (try bits(2)))
          case 17: lengths += [Int](repeating: 0, count: 3 + (try bits(3)))
          default: lengths += [Int](repeating: 0, count: 11 + (try bits(7)))
          }
        }
      }
      guard lengths.count == hlit + hdist else { throw Failure(message: "deflate code lengths overrun (damaged data)") }
      guard lengths[256] > 0 else { throw Failure(message: "deflate block has no end code (damaged data)") }
      return (try Table(lengths: Array(lengths[0..<hlit])), try Table(lengths: Array(lengths[hlit...])))
    }

    mutating func codes(_ literals: Table, _ distances: Table) throws(Failure) {
      try literals.entries.withUnsafeBufferPointer { lit throws(Failure) in
        try distances.entries.withUnsafeBufferPointer { dist throws(Failure) in
          let litBits = literals.bits, distBits = distances.bits
          while true {
            let symbol = try decode(lit, litBits)
            if symbol < 256 {
              guard produced < limit else { throw tooMuch() }
              out[produced] = UInt8(truncatingIfNeeded: symbol)
              produced += 1
              continue
            }
            if symbol == 256 { return }
            let li = symbol - 257
            guard li < 29 else { throw Failure(message: "invalid deflate length code (damaged data)") }
            let length = Inflate.lengthBase[li] + (try bits(Inflate.lengthExtra[li]))
            let di = try decode(dist, distBits)
            guard di < 30 else { throw Failure(message: "invalid deflate distance code (damaged data)") }
            let distance = Inflate.distanceBase[di] + (try bits(Inflate.distanceExtra[di]))
            guard distance <= produced else {
              throw Failure(message: "deflate distance reaches before the start (damaged data)")
            }
            guard produced + length <= limit else { throw tooMuch() }
            // Byte by byte: an overlapping copy repeats the last `distance` bytes, as deflate means.
            var from = produced - distance
            for _ in 0..<length {
              out[produced] = out[from]
              produced += 1
              from += 1
            }
          }
        }
      }
    }
  }
}
