import FlickMotion
import Foundation

/// Counts what a Lottie file makes rlottie build, so a small file cannot expand into millions of
/// objects (rlottie builds every repeater copy and every precomposition reference up front).
///
/// An *instance* is one copy a repeater (`ty: "rp"`, `c` copies, the largest keyframe when
/// animated) makes of what precedes it in its group, or one use of a precomposition by a layer
/// (`refId`); instances inside a repeated group or a used precomposition count once per copy,
/// so nested repeaters multiply (four levels of 100 copies are 10⁸). A *drawn item* is one
/// layer or shape item as rlottie builds it, copies included. A file over
/// ``LottieFile/maximumInstances`` or ``LottieFile/maximumDrawnItems`` is refused at the
/// repeater or layer that passes the cap; a precomposition that uses itself (directly or
/// through others) or that nests deeper than ``maximumPrecompositionDepth`` is refused too.
enum LottieInstances {
  /// How deeply precompositions may use precompositions.
  static let maximumPrecompositionDepth = 64

  struct Totals {
    var instances = 0.0
    var items = 0.0

    static func += (a: inout Totals, b: Totals) {
      a.instances += b.instances
      a.items += b.items
    }
  }

  /// Counts `document`, throwing where it passes a cap; returns the layers and shapes built.
  static func check(_ document: LottieJSON, bytes: [UInt8], path: String) throws(LottieFileError) -> Int {
    var counter = Counter(bytes: bytes, path: path)
    for (i, asset) in (document["assets"]?.items ?? []).enumerated() {
      guard let layers = asset["layers"]?.items else { continue }
      guard let id = LottieLayerIntegers.assetID(asset["id"]) else { continue }
      counter.assets[id] = (i, layers)
    }
    return Int(try counter.layers(document["layers"]?.items ?? [], at: "layers", depth: 0).items)
  }

  private struct Counter {
    let bytes: [UInt8]
    let path: String
    var assets: [String: (index: Int, layers: [LottieJSON])] = [:]
    var memo: [String: Totals] = [:]
    var open: Set<String> = []

    func fail(_ offset: Int, _ place: String, _ message: String) -> LottieFileError {
      let (line, column) = LottieJSON.location(of: offset, in: bytes)
      return LottieFileError(path: path, line: line, column: column, message: "\(escaped: place): \(escaped: message)")
    }

    static func shown(_ n: Double) -> String { n < 1e15 ? "\(Int(n))" : "more than 10^15" }

    /// Throws at `offset` when `t` is over a cap.
    func checkCaps(_ t: Totals, at offset: Int, _ place: String, _ what: String) throws(LottieFileError) {
      if t.instances > Double(LottieFile.maximumInstances) {
        throw fail(
          offset, place,
          "\(what) makes \(Self.shown(t.instances)) instances (repeater copies and precomposition uses, nested ones "
            + "multiplied); at most \(LottieFile.maximumInstances) are drawn")
      }
      if t.items > Double(LottieFile.maximumDrawnItems) {
        throw fail(
          offset, place,
          "\(what) makes \(Self.shown(t.items)) layers and shapes to draw (repeater copies and precomposition uses "
            + "included); at most \(LottieFile.maximumDrawnItems) are drawn")
      }
    }

    func offset(of key: String, in object: LottieJSON) -> Int {
      object.members?.first { $0.key == key }?.offset ?? 0
    }

    mutating func layers(_ list: [LottieJSON], at place: String, depth: Int) throws(LottieFileError) -> Totals {
      var total = Totals()
      for (i, layer) in list.enumerated() {
        guard layer.members != nil else { continue }
        let here = "\(place)[\(i)]"
        total.items += 1
        if let shapes = layer["shapes"]?.items {
          total += try items(shapes, at: here + ".shapes")
        }
        if case .string(let ref)? = layer["refId"], let asset = assets[ref] {
          let at = offset(of: "refId", in: layer)
          let used: Totals
          if let known = memo[ref] {
            used = known
          } else {
            guard !open.contains(ref) else {
              throw fail(at, here + ".refId", "the precomposition '\(quoted: ref)' uses itself")
            }
            guard depth < LottieInstances.maximumPrecompositionDepth else {
              throw fail(
                at, here + ".refId", "precompositions nested deeper than \(LottieInstances.maximumPrecompositionDepth)")
            }
            open.insert(ref)
            used = try layers(asset.layers, at: "assets[\(asset.index)].layers", depth: depth + 1)
            open.remove(ref)
            memo[ref] = used
          }
          total.instances += 1 + used.instances
          total.items += used.items
          try checkCaps(total, at: at, here + ".refId", "using the precomposition '\(quoted: ref)' here")
        }
        try checkCaps(total, at: offset(of: "ty", in: layer), here, "this layer")
      }
      return total
    }

    /// A shape list (a layer's `shapes`, a group's `it`): a repeater copies what precedes it.
    func items(_ list: [LottieJSON], at place: String) throws(LottieFileError) -> Totals {
      var total = Totals()
      for (j, item) in list.enumerated() {
        guard item.members != nil else { continue }
        let here = "\(place)[\(j)]"
        switch item["ty"]?.text {
        case "gr"?:
          total += try items(item["it"]?.items ?? [], at: here + ".it")
          total.items += 1
        case "rp"?:
          let copies = Self.copies(item["c"])
          total.instances = copies * (total.instances + 1)
          total.items = copies * total.items + 1
          try checkCaps(
            total, at: offset(of: "c", in: item), here + ".c", "a repeater of \(Self.shown(copies)) copies")
        default:
          total.items += 1
        }
      }
      return total
    }

    /// The most copies a repeater's `c` asks for at any keyframe (0 when absent or negative).
    static func copies(_ c: LottieJSON?) -> Double {
      guard let k = c?["k"] else { return 0 }
      var most = 0.0
      func take(_ v: LottieJSON?) {
        switch v {
        case .number(let n)?: most = max(most, Double(n) ?? 0)
        case .array(let a)?: for x in a { if case .number(let n) = x { most = max(most, Double(n) ?? 0) } }
        default: break
        }
      }
      take(k)
      for keyframe in k.items ?? [] where keyframe.members != nil {
        take(keyframe["s"])
        take(keyframe["e"])
      }
      return most.isNaN ? 0 : most.rounded(.up)
    }
  }
}

extension LottieFile {
  /// The most instances a Lottie file may make: repeater copies and precomposition uses, nested
  /// ones multiplied (10,000, as a template's component instances).
  package static let maximumInstances = 10_000
  /// The most layers and shape items rlottie may build for one file, copies included (20,000).
  ///
  /// rlottie draws every item of every frame and keeps its coverage: a repeater of 1,000 copies
  /// of 12 large items takes 2.3 s a frame, 9,000 copies of 12 take 20 s and 200 MB, 10,000
  /// copies of one 5.7 s and 400 MB (512² frames, measured 2026-12-02 on the 2-core machine).
  package static let maximumDrawnItems = 20_000
}
