/// The `\uXXXX` escapes of JSON and JSON5 text. Each writes one UTF-16 code unit, so a character
/// beyond U+FFFF (an emoji, as Python's `json.dumps` writes every one) is two escapes: a high
/// surrogate (`\uD83D`) and a low one (`\uDE00`), which make one character. Half of a pair on its
/// own is no character, and a Swift string cannot hold it: it is refused.
///
/// Both of Flick's JSON readers decode their escapes here: the JSON5 parser of templates, params
/// files, `--set` lists and batch manifests, and the strict reader of Lottie files.
package enum UTF16Escape {
  /// Half of a surrogate pair on its own.
  package enum Problem: Error, Equatable {
    /// The high surrogate `high` without a low one after it: `found` is the code unit of the
    /// `\u` escape that follows instead, nil when no `\u` escape follows.
    case missingLow(high: UInt16, found: UInt16?)
    /// The low surrogate `low` without a high one before it.
    case missingHigh(low: UInt16)

    /// What is wrong, naming the escapes as written (`\uD83D`).
    package var message: String {
      switch self {
      case .missingLow(let high, let found):
        let after = "expected a low surrogate \\uDC00–\\uDFFF after \\u" + UTF16Escape.hex(high)
        return after + (found.map { ", found \\u" + UTF16Escape.hex($0) } ?? " (a lone high surrogate)")
      case .missingHigh(let low):
        return "expected a high surrogate \\uD800–\\uDBFF before \\u" + UTF16Escape.hex(low) + " (a lone low surrogate)"
      }
    }
  }

  /// The character that the escape of code unit `unit` starts: the unit's own, or for a high
  /// surrogate the one it makes with the low surrogate that `readLow` reads (the unit of the next
  /// `\u` escape, consumed; nil, consuming nothing, when the text does not go on with one).
  ///
  /// - Returns: The character, or the ``Problem`` for half of a pair on its own.
  /// - Throws: What `readLow` throws (digits that are not hex).
  package static func scalar<Failure: Error>(
    _ unit: UInt16, readingLow readLow: () throws(Failure) -> UInt16?
  ) throws(Failure) -> Result<Unicode.Scalar, Problem> {
    switch unit {
    case 0xD800...0xDBFF:
      let low = try readLow()
      guard let low, (0xDC00...0xDFFF).contains(low),
        let pair = Unicode.Scalar(0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00))
      else { return .failure(.missingLow(high: unit, found: low)) }
      return .success(pair)
    case 0xDC00...0xDFFF:
      return .failure(.missingHigh(low: unit))
    default:
      // Every other code unit is a scalar of its own.
      return .success(Unicode.Scalar(unit) ?? "\u{FFFD}")
    }
  }

  /// `unit` as four uppercase hex digits, as an escape writes it: `D83D`, `0041`.
  static func hex(_ unit: UInt16) -> String {
    let digits = String(unit, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}
