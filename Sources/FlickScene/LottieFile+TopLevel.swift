import FlickMotion
import Foundation

extension LottieFile {
  /// The canvas and timing of a Lottie file, as its top level gives them.
  struct Header {
    var width: Double
    var height: Double
    var frameRate: Double
    var inPoint: Double
    var outPoint: Double
  }

  /// Checks the top level of `bytes` before anything else reads the file: Lottie's keys are
  /// there, `w`, `h`, `fr`, `ip` and `op` are numbers in range, the canvas is within
  /// `maximumPixels`, and `layers` is an array of at most ``maximumDrawnItems`` layers. One pass
  /// that skips every value (``LottieTopLevel``), so a file refused for its header costs no
  /// parse. Each problem is located (`FILE:LINE:COL: w: …`).
  ///
  /// - Returns: The header, or nil when the bytes are not a whole JSON object (the strict parse
  ///   then says where they break).
  static func checkTopLevel(
    _ bytes: [UInt8], path: String, maximumPixels: Int
  ) throws(LottieFileError) -> Header? {
    guard let top = bytes.withUnsafeBytes({ LottieTopLevel.scan($0) }), !top.truncated else { return nil }
    let missing = requiredKeys.filter { top.entries[$0] == nil }
    guard missing.isEmpty else {
      throw LottieFileError(
        path: path,
        message: "is not a Lottie file: missing \(quoted: missing.map { "'\($0)'" }.joined(separator: ", "))")
    }
    func fail(_ key: String, _ message: String) -> LottieFileError {
      let (line, column) = LottieJSON.location(of: top.entries[key]?.valueStart ?? 0, in: bytes)
      return LottieFileError(path: path, line: line, column: column, message: key + ": " + message)
    }
    func number(_ key: String, _ range: ClosedRange<Double>, _ shown: String) throws(LottieFileError) -> Double {
      let entry = top.entries[key] ?? LottieTopLevel.Entry(keyOffset: 0, valueStart: 0, valueEnd: 0)
      // The strict parse refuses a number longer than 64 characters whatever its value: say so
      // rather than show the first 64 as if they were the value.
      let count = entry.valueEnd - entry.valueStart
      let numeric = bytes[entry.valueStart..<entry.valueEnd].allSatisfy { Array("0123456789+-.eE".utf8).contains($0) }
      guard count <= 64 || !numeric else {
        throw fail(
          key,
          "a number of \(count) characters; numbers are written in at most 64 "
            + "(and must be in " + shown + ")")
      }
      let text = String(decoding: bytes[entry.valueStart..<min(entry.valueEnd, entry.valueStart + 64)], as: UTF8.self)
      let isNumber = text.utf8.allSatisfy { Array("0123456789+-.eE".utf8).contains($0) } && !text.isEmpty
      guard isNumber, let v = Double(text), v.isFinite, range.contains(v) else {
        throw fail(key, "must be a number in " + shown + ", found \(quoted: text)")
      }
      return v
    }
    let w = try number("w", 1...16384, "1…16384")
    let h = try number("h", 1...16384, "1…16384")
    let (cw, ch) = (Int(w.rounded(.up)), Int(h.rounded(.up)))
    guard cw * ch <= maximumPixels else {
      throw fail(
        "w",
        "the canvas is \(quoted: cw)×\(quoted: ch) = \(quoted: cw * ch) pixels, more than the cap of \(maximumPixels) "
          + "(--max-pixels or FLICK_MAX_PIXELS raises it)")
    }
    let fr = try number("fr", 0.001...1000, "0.001…1000")
    let ip = try number("ip", -1e7...1e7, "-10000000…10000000")
    let op = try number("op", -1e7...1e7, "-10000000…10000000")
    guard op - ip >= 1 else {
      throw fail("op", "\(quoted: op) must be at least one frame after 'ip' (\(quoted: ip))")
    }
    guard op - ip <= 1_000_000 else {
      throw fail("op", "the file has \(Int(op - ip)) frames ('op' − 'ip'); at most 1000000 are rendered")
    }
    guard let layers = top.entries["layers"], bytes[layers.valueStart] == UInt8(ascii: "[") else {
      throw fail("layers", "must be an array of layers")
    }
    guard top.layerCount <= maximumDrawnItems else {
      throw fail(
        "layers", "has \(quoted: top.layerCount) layers; at most \(maximumDrawnItems) layers and shapes are drawn")
    }
    return Header(width: w, height: h, frameRate: fr, inPoint: ip, outPoint: op)
  }
}
