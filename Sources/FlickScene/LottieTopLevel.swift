import FlickMotion
import Foundation

/// The top level of a Lottie file read without parsing the rest: each top-level key with where
/// its value is, and how many items `layers` has.
///
/// It is one pass over the bytes that allocates only the keys, so it can tell a Lottie file from
/// a template (``LottieFile/isLottie(path:)``) and check the canvas, timing and layer count
/// (``LottieFile/checkTopLevel(_:path:maximumPixels:)``) before the strict parse builds the
/// whole tree. Values are skipped by their brackets and quotes, not checked: a `NaN` or a
/// `1e400` deep inside is left for the strict parser to locate.
struct LottieTopLevel {
  struct Entry {
    /// Byte offsets of the key and of its value's first and past-the-last byte.
    var keyOffset: Int
    var valueStart: Int
    var valueEnd: Int
  }

  /// The top-level keys, each with its first occurrence.
  var entries: [String: Entry] = [:]
  /// The top-level object did not close as JSON: the bytes ended first (a prefix of a file) or
  /// broke (a JSON5 template, a syntax error, which the strict parse locates).
  var truncated = false
  /// The items of a `layers` array.
  var layerCount = 0

  /// Lottie's top-level keys besides `layers`.
  static let headerKeys = ["v", "fr", "ip", "op", "w", "h"]

  /// Whether the keys are a Lottie file's rather than a template's: `layers` (unless the bytes
  /// end first) and at least three of ``headerKeys``, and no `flick` format version. A file
  /// that looks like Lottie is read by the Lottie loader, whose errors say what is wrong in it.
  var looksLikeLottie: Bool {
    entries["flick"] == nil && (entries["layers"] != nil || truncated)
      && Self.headerKeys.filter { entries[$0] != nil }.count >= 3
  }

  /// Scans `bytes`; nil when they do not start with a JSON object whose keys are strings.
  static func scan(_ bytes: UnsafeRawBufferPointer) -> LottieTopLevel? {
    var scanner = Scanner(bytes: bytes)
    return scanner.topLevel()
  }

  static func scan(_ data: Data) -> LottieTopLevel? {
    data.withUnsafeBytes { scan($0) }
  }
}

private struct Scanner {
  let bytes: UnsafeRawBufferPointer
  var i = 0

  init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

  mutating func skipSpace() {
    while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
  }

  /// Past a string at its opening quote; false when the bytes end inside it.
  mutating func skipString() -> Bool {
    i += 1
    while i < bytes.count {
      switch bytes[i] {
      case UInt8(ascii: "\\"): i += 2
      case UInt8(ascii: "\""):
        i += 1
        return true
      default: i += 1
      }
    }
    return false
  }

  /// Past one value; counts the items when it is an array. False when the bytes end inside it.
  mutating func skipValue(items: inout Int) -> Bool {
    guard i < bytes.count else { return false }
    switch bytes[i] {
    case UInt8(ascii: "\""): return skipString()
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      let isArray = bytes[i] == UInt8(ascii: "[")
      var depth = 0
      repeat {
        guard i < bytes.count else { return false }
        switch bytes[i] {
        case UInt8(ascii: "\""):
          guard skipString() else { return false }
          continue
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          depth += 1
          if depth == 1, isArray {
            i += 1
            skipSpace()
            if i < bytes.count, bytes[i] != UInt8(ascii: "]") { items = 1 }
            continue
          }
        case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
        case UInt8(ascii: ","): if depth == 1, isArray { items += 1 }
        default: break
        }
        i += 1
      } while depth > 0
      return true
    default:
      while i < bytes.count {
        switch bytes[i] {
        case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09: return true
        default: i += 1
        }
      }
      return false
    }
  }

  mutating func topLevel() -> LottieTopLevel? {
    var result = LottieTopLevel()
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
    skipSpace()
    guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { return nil }
    i += 1
    while true {
      skipSpace()
      guard i < bytes.count else {
        result.truncated = true
        return result
      }
      if bytes[i] == UInt8(ascii: "}") { return result }
      guard bytes[i] == UInt8(ascii: "\"") else {
        // Not JSON (a JSON5 template's bare key): incomplete, the strict parse says where.
        result.truncated = true
        return result.entries.isEmpty ? nil : result
      }
      let keyOffset = i
      guard skipString() else {
        result.truncated = true
        return result
      }
      let key = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(keyOffset + 1)..<(i - 1)]), as: UTF8.self)
      skipSpace()
      guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else {
        result.truncated = true
        return result
      }
      i += 1
      skipSpace()
      let valueStart = i
      var items = 0
      let complete = skipValue(items: &items)
      if result.entries[key] == nil {
        result.entries[key] = LottieTopLevel.Entry(keyOffset: keyOffset, valueStart: valueStart, valueEnd: i)
        if key == "layers" { result.layerCount = items }
      }
      guard complete else {
        result.truncated = true
        return result
      }
      skipSpace()
      guard i < bytes.count else {
        result.truncated = true
        return result
      }
      if bytes[i] == UInt8(ascii: ",") {
        i += 1
        continue
      }
      if bytes[i] != UInt8(ascii: "}") { result.truncated = true }
      return result
    }
  }
}
