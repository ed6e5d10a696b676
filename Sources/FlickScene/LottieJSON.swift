import FlickMotion
import Foundation

/// A Lottie file's JSON as Flick checks it and as rlottie is given it: parsed strictly (RFC 8259,
/// UTF-8, no duplicate key in any object, no NUL in any string, at most ``maximumDepth`` levels),
/// every value with where it starts, and written back by ``serialized()``.
///
/// rlottie parses JSON again with its own parser, so what Flick checks and what rlottie reads
/// must be the same document: a duplicate key (one parser keeps the first, the other the last)
/// or a NUL inside a key (`"p\u0000x"` is `p` to rlottie's C strings) would let a file show the
/// checker one thing and rlottie another. Those are refused here, and rlottie is handed
/// ``serialized()`` of the checked (and rewritten) tree, never the file's own bytes. Numbers are
/// kept as written (the same text gives rlottie the same value), so a file rlottie drew before
/// draws the same pixels now.
indirect enum LottieJSON: Sendable {
  case object([Member])
  case array([LottieJSON])
  case string(String)
  /// A number as written in the file (validated against JSON's number grammar).
  case number(String)
  case bool(Bool)
  case null

  /// One key and value of an object, in the file's order, with where the key starts.
  struct Member: Sendable {
    var key: String
    var value: LottieJSON
    /// Byte offset of the key in the file (``location(of:in:)`` makes it a line and column).
    var offset: Int
  }

  /// How deeply arrays and objects may nest (JSONSerialization's own limit is the same).
  static let maximumDepth = 512

  /// Why the bytes are not a JSON document Flick hands to rlottie: the message, and the 1-based
  /// line and column and JSON path where it was found.
  struct Problem: Error, Sendable {
    var message: String
    var line: Int
    var column: Int
    var path: String
    /// Whether the bytes are not JSON at all (rather than JSON Flick refuses: a duplicate key, a
    /// NUL, too deep).
    var isSyntax = true
  }

  /// The member named `key`, if any (keys are unique).
  subscript(key: String) -> LottieJSON? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }

  var members: [Member]? {
    if case .object(let m) = self { return m }
    return nil
  }

  var items: [LottieJSON]? {
    if case .array(let a) = self { return a }
    return nil
  }

  var text: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  /// The number's value (`Double` of the written text; may be infinite for `1e999`).
  var double: Double? {
    if case .number(let n) = self { return Double(n) }
    return nil
  }

  /// How many values (numbers, strings, booleans, nulls, arrays and objects) a document may
  /// have. Each costs the tree about 40–50 bytes however short it is written (`0,` is two), so
  /// the budget bounds the tree at about 400 MB whatever the file; a real animation has well under
  /// a million (a 7.5 MB file of 100,000 keyframes has 1.4 million).
  static let maximumValues = 8_000_000

  /// Parses `data` as one JSON document of at most `maximumValues` values.
  static func parse(_ data: Data, maximumValues: Int = maximumValues) throws(Problem) -> LottieJSON {
    var parser = LottieJSONParser(bytes: [UInt8](data), maximumValues: maximumValues)
    return try parser.document()
  }

  /// A key as a JSON path component: `.name` for plain keys, else `["…"]` with anything that is
  /// not printable ASCII escaped and at most 40 characters shown (keys come from the file).
  static func pathComponent(_ key: String) -> String {
    let plain =
      key.utf8.count <= 40 && !key.isEmpty
      && key.unicodeScalars.allSatisfy {
        $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
      }
    return plain ? "." + key : "[\"" + shown(key, limit: 40) + "\"]"
  }

  /// File text made safe to quote in a message: ``FlickMotion/MessageText/quoted(_:limit:)``, at
  /// most `limit` characters.
  static func shown(_ text: String, limit: Int = 80) -> String {
    MessageText.quoted(text, limit: limit)
  }
}

/// The strict recursive-descent parser behind ``LottieJSON/parse(_:maximumValues:)``.
private struct LottieJSONParser {
  let bytes: [UInt8]
  let maximumValues: Int
  var values = 0
  var i = 0
  /// The JSON path of the value being read (`layers[2].shapes[0]`), for messages.
  var path: [String] = []

  init(bytes: [UInt8], maximumValues: Int) {
    self.bytes = bytes
    self.maximumValues = maximumValues
  }

  func location(_ offset: Int) -> (line: Int, column: Int) { LottieJSON.location(of: offset, in: bytes) }
}

extension LottieJSON {
  /// The 1-based line and column (in characters) of byte `offset` of `bytes`; computed only for
  /// a message, as it reads the file up to there.
  static func location(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
    var line = 1
    var lineStart = 0
    // A line ends at LF, at CR LF, or at a CR alone (old Mac files), as the template parser and
    // editors count them.
    for k in 0..<min(offset, bytes.count)
    where bytes[k] == 0x0A || (bytes[k] == 0x0D && (k + 1 >= bytes.count || bytes[k + 1] != 0x0A)) {
      line += 1
      lineStart = k + 1
    }
    // Columns count characters, not bytes (UTF-8 continuation bytes are skipped).
    let column = 1 + bytes[lineStart..<min(offset, bytes.count)].filter { $0 & 0xC0 != 0x80 }.count
    return (line, column)
  }
}

extension LottieJSONParser {
  func fail(_ message: String, at offset: Int? = nil) -> LottieJSON.Problem {
    let (line, column) = location(offset ?? i)
    let shown = path.isEmpty ? "(root)" : path.joined().drop { $0 == "." }
    return LottieJSON.Problem(message: message, line: line, column: column, path: String(shown))
  }

  mutating func document() throws(LottieJSON.Problem) -> LottieJSON {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
    skipSpace()
    let value = try value(depth: 0)
    skipSpace()
    guard i == bytes.count else { throw fail("unexpected text after the JSON document") }
    return value
  }

  mutating func skipSpace() {
    while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
  }

  mutating func value(depth: Int) throws(LottieJSON.Problem) -> LottieJSON {
    guard i < bytes.count else { throw fail("unexpected end of the file") }
    values += 1
    guard values <= maximumValues else {
      var problem = fail(
        "the file has more than \(maximumValues) JSON values (numbers, strings, arrays, objects); "
          + "a Lottie file may have at most \(maximumValues)")
      problem.isSyntax = false
      throw problem
    }
    switch bytes[i] {
    case UInt8(ascii: "{"):
      guard depth < LottieJSON.maximumDepth else { throw fail("nested deeper than \(LottieJSON.maximumDepth) levels") }
      return try object(depth: depth + 1)
    case UInt8(ascii: "["):
      guard depth < LottieJSON.maximumDepth else { throw fail("nested deeper than \(LottieJSON.maximumDepth) levels") }
      return try array(depth: depth + 1)
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): return try literal("true", .bool(true))
    case UInt8(ascii: "f"): return try literal("false", .bool(false))
    case UInt8(ascii: "n"): return try literal("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
    default:
      for word in ["NaN", "Infinity"] where bytes[i...].starts(with: word.utf8) {
        var problem = fail(word + " is not a JSON number (write a number such as 0)")
        problem.isSyntax = false
        throw problem
      }
      throw fail("expected a JSON value")
    }
  }

  mutating func literal(_ word: String, _ value: LottieJSON) throws(LottieJSON.Problem) -> LottieJSON {
    let u = Array(word.utf8)
    guard i + u.count <= bytes.count, Array(bytes[i..<(i + u.count)]) == u else { throw fail("expected a JSON value") }
    i += u.count
    return value
  }

  mutating func object(depth: Int) throws(LottieJSON.Problem) -> LottieJSON {
    i += 1
    var members: [LottieJSON.Member] = []
    var seen: [String: Int] = [:]
    skipSpace()
    if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
      i += 1
      return .object([])
    }
    while true {
      skipSpace()
      guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a key in quotes") }
      let start = i
      let key = try string()
      if let first = seen[key] {
        path.append(LottieJSON.pathComponent(key))
        let (line, column) = location(first)
        var problem = fail(
          "duplicate key (first at line \(line), column \(column)); a Lottie file must give each key once", at: start)
        problem.isSyntax = false
        throw problem
      }
      seen[key] = start
      skipSpace()
      guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':' after a key") }
      i += 1
      skipSpace()
      path.append(LottieJSON.pathComponent(key))
      let value = try value(depth: depth)
      path.removeLast()
      members.append(LottieJSON.Member(key: key, value: value, offset: start))
      skipSpace()
      guard i < bytes.count else { throw fail("an object is not closed") }
      if bytes[i] == UInt8(ascii: ",") {
        i += 1
        continue
      }
      guard bytes[i] == UInt8(ascii: "}") else { throw fail("expected ',' or '}' in an object") }
      i += 1
      return .object(members)
    }
  }

  mutating func array(depth: Int) throws(LottieJSON.Problem) -> LottieJSON {
    i += 1
    var items: [LottieJSON] = []
    skipSpace()
    if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
      i += 1
      return .array([])
    }
    while true {
      skipSpace()
      path.append("[\(items.count)]")
      let item = try value(depth: depth)
      path.removeLast()
      items.append(item)
      skipSpace()
      guard i < bytes.count else { throw fail("an array is not closed") }
      if bytes[i] == UInt8(ascii: ",") {
        i += 1
        continue
      }
      guard bytes[i] == UInt8(ascii: "]") else { throw fail("expected ',' or ']' in an array") }
      i += 1
      return .array(items)
    }
  }

  mutating func number() throws(LottieJSON.Problem) -> LottieJSON {
    let start = i
    func digits() -> Int {
      let s = i
      while i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) { i += 1 }
      return i - s
    }
    if bytes[i] == UInt8(ascii: "-") { i += 1 }
    if i < bytes.count, bytes[i] == UInt8(ascii: "0") {
      i += 1
    } else if digits() == 0 {
      if bytes[start...].starts(with: "-Infinity".utf8) {
        var problem = fail("-Infinity is not a JSON number (write a number such as 0)", at: start)
        problem.isSyntax = false
        throw problem
      }
      throw fail("a number needs digits", at: start)
    }
    if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
      i += 1
      guard digits() > 0 else { throw fail("a number needs digits after '.'", at: start) }
    }
    if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
      i += 1
      if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
      guard digits() > 0 else { throw fail("a number needs digits in its exponent", at: start) }
    }
    guard i - start <= 64 else { throw fail("a number of more than 64 characters", at: start) }
    let text = String(decoding: bytes[start..<i], as: UTF8.self)
    guard Double(text)?.isFinite == true else {
      var problem = fail("\(quoted: text) is beyond what a 64-bit number holds (±1.8e308)", at: start)
      problem.isSyntax = false
      throw problem
    }
    return .number(text)
  }

  /// A string (at the opening quote): escapes decoded, UTF-8 checked, NUL and raw controls refused.
  mutating func string() throws(LottieJSON.Problem) -> String {
    let start = i
    i += 1
    var out: [UInt8] = []
    while true {
      guard i < bytes.count else { throw fail("a string is not closed", at: start) }
      let byte = bytes[i]
      if byte == UInt8(ascii: "\"") {
        i += 1
        break
      }
      if byte < 0x20 { throw fail("a control character inside a string (write it as an escape)") }
      if byte != UInt8(ascii: "\\") {
        out.append(byte)
        i += 1
        continue
      }
      i += 1
      guard i < bytes.count else { throw fail("a string is not closed", at: start) }
      let escape = bytes[i]
      i += 1
      switch escape {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
      case UInt8(ascii: "b"): out.append(0x08)
      case UInt8(ascii: "f"): out.append(0x0C)
      case UInt8(ascii: "n"): out.append(0x0A)
      case UInt8(ascii: "r"): out.append(0x0D)
      case UInt8(ascii: "t"): out.append(0x09)
      case UInt8(ascii: "u"):
        // The escape's backslash, where half of a surrogate pair on its own is reported.
        let backslash = i - 2
        let unit = try hex4()
        let decoded = try UTF16Escape.scalar(unit) { () throws(LottieJSON.Problem) -> UInt16? in
          guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
            return nil
          }
          i += 2
          return try hex4()
        }
        let u: Unicode.Scalar
        switch decoded {
        case .success(let scalar): u = scalar
        case .failure(let problem): throw fail(problem.message, at: backslash)
        }
        guard u != "\0" else {
          var problem = fail("a NUL character inside a string (rlottie would cut the string there)")
          problem.isSyntax = false
          throw problem
        }
        out.append(contentsOf: Array(String(Character(u)).utf8))
      default: throw fail("an unknown escape inside a string")
      }
    }
    guard let text = String(validating: out, as: UTF8.self) else { throw fail("a string that is not UTF-8", at: start) }
    return text
  }

  mutating func hex4() throws(LottieJSON.Problem) -> UInt16 {
    // Four ASCII hex digits: UInt16(_:radix:) alone would also read "+041".
    guard i + 4 <= bytes.count, bytes[i..<(i + 4)].allSatisfy({ Character(Unicode.Scalar($0)).isASCIIHexDigit }),
      let v = UInt16(String(decoding: bytes[i..<(i + 4)], as: UTF8.self), radix: 16)
    else { throw fail("a \\u escape needs four hex digits (0-9, a-f)") }
    i += 4
    return v
  }
}
