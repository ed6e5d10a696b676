import FlickMotion
import Foundation

/// The whole numbers of a layer that link or classify layers, read as rlottie 0.1 reads them.
///
/// rlottie reads a layer's `ind`, `parent`, `ty`, `tt`, `bm`, `ddd` and `ao` with its parser's
/// `GetInt`: only a number written as a whole number from −2³¹ to 2³¹ − 1. Anything else
/// (`1.5`, `1.0`, `3e9`, `true`, a string) fails the whole file, so Flick's own reading (its
/// layer kinds, track mattes, parent chains) and rlottie's could not agree on it. Such a value
/// is refused at its key, naming what is expected; a whole number written with a fraction or
/// exponent (`1.0`, `1e0`: lottie-web and lottie-ios read it as `1`) is written as its digits
/// in the copy rlottie is given (``LottieRlottieCopy``). A layer's `tp` (the index of its matte
/// layer, which rlottie 0.1 does not read) must be such a number too: it names an `ind`. An
/// asset's `id` written as a number is read the same way (rlottie names it by its digits), and
/// a layer's `refId` must be a string (rlottie fails the file on a number).
enum LottieLayerIntegers {
  /// The keys of a layer that hold whole numbers, and what each is.
  static let keys: [(key: String, what: String)] = [
    ("ind", "a layer index"), ("parent", "the index of the parent layer"), ("ty", "a layer type"),
    ("tt", "a track matte mode"), ("tp", "the index of the matte layer"), ("bm", "a blend mode"),
    ("ddd", "0 or 1 (3D)"), ("ao", "0 or 1 (auto-orient)"),
  ]

  static let range = Double(Int32.min)...Double(Int32.max)

  /// The value of a whole number rlottie's `GetInt` reads: a number, whole, within 32 bits.
  static func whole(_ value: LottieJSON) -> Int? {
    guard case .number = value, let v = value.double, v.isFinite, v == v.rounded(), range.contains(v) else {
      return nil
    }
    return Int(v)
  }

  /// An asset's `id` as a layer's `refId` names it (a whole-number id as its digits).
  static func assetID(_ id: LottieJSON?) -> String? {
    switch id {
    case .string(let s)?: return s
    case .number?: return id.flatMap(whole).map { String($0) }
    default: return nil
    }
  }

  /// Throws at the first layer key (or asset `id`, or `refId`) rlottie would not read.
  static func check(_ document: LottieJSON, bytes: [UInt8], path: String) throws(LottieFileError) {
    func fail(_ offset: Int, _ place: String, _ message: String) -> LottieFileError {
      let (line, column) = LottieJSON.location(of: offset, in: bytes)
      return LottieFileError(path: path, line: line, column: column, message: "\(escaped: place): \(escaped: message)")
    }
    func layers(_ list: LottieJSON?, at place: String) throws(LottieFileError) {
      for (i, layer) in (list?.items ?? []).enumerated() {
        guard let members = layer.members else { continue }
        for member in members {
          if member.key == "refId", case .number(let n) = member.value {
            throw fail(
              member.offset, place + "[\(i)].refId",
              "expected a string naming an asset's id, not the number \(quoted: n) (write it in quotes)")
          }
          guard let what = keys.first(where: { $0.key == member.key })?.what, whole(member.value) == nil else {
            continue
          }
          throw fail(
            member.offset, place + "[\(i)]." + member.key,
            "expected a whole number from -2147483648 to 2147483647 (\(escaped: what)), not \(escaped: shown(member.value))"
          )
        }
      }
    }
    /// A layer whose parent chain comes back to itself: lottie-web recurses along it for ever,
    /// rlottie 0.1 drew the file as if it had none.
    func cycles(_ list: LottieJSON?, at place: String) throws(LottieFileError) {
      let layers = list?.items ?? []
      var index: [Int: Int] = [:]
      for (i, layer) in layers.enumerated() {
        if let ind = layer["ind"].flatMap(whole), index[ind] == nil { index[ind] = i }
      }
      let parentOf = layers.map { $0["parent"].flatMap(whole).flatMap { index[$0] } }
      for (i, layer) in layers.enumerated() {
        var next = parentOf[i]
        var steps = 0
        while let j = next, j != i, steps < layers.count {
          next = parentOf[j]
          steps += 1
        }
        guard next == i, let parent = layer.members?.first(where: { $0.key == "parent" }) else { continue }
        throw fail(
          parent.offset, place + "[\(i)].parent",
          "the parent chain comes back to this layer (a layer cannot be its own parent or ancestor)")
      }
    }
    try layers(document["layers"], at: "layers")
    try cycles(document["layers"], at: "layers")
    for (i, asset) in (document["assets"]?.items ?? []).enumerated() {
      guard let members = asset.members else { continue }
      if let id = members.first(where: { $0.key == "id" }), case .number = id.value, whole(id.value) == nil {
        throw fail(
          id.offset, "assets[\(i)].id",
          "expected a string or a whole number from -2147483648 to 2147483647 (an asset id), not \(escaped: shown(id.value))"
        )
      }
      try layers(asset["layers"], at: "assets[\(i)].layers")
      try cycles(asset["layers"], at: "assets[\(i)].layers")
    }
  }

  private static func shown(_ value: LottieJSON) -> String {
    switch value {
    case .number(let n): return "\(quoted: n)"
    case .string(let s): return "the string '\(quoted: s, limit: 20)'"
    case .bool(let b): return b ? "true" : "false"
    case .null: return "null"
    case .array: return "an array"
    case .object: return "an object"
    }
  }
}
