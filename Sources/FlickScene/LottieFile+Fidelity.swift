import Foundation

/// What rlottie 0.1 draws otherwise than lottie-web and Flick's copy cannot write exactly
/// (``LottieRlottieCopy``, whose output this reads): refused as features, each with its place.
extension LottieFeatureInspector {
  /// The shape items lottie-web draws that rlottie 0.1 skips: every other type lottie-web knows
  /// (`fl`, `st`, `gf`, `gs`, `gr`, `tr`, `sh`, `rc`, `el`, `sr`, `tm`, `rp`) rlottie draws too,
  /// and a type neither knows both skip.
  static let undrawnShapeItems: [String: String] = [
    "rd": "round corners", "pb": "pucker/bloat", "zz": "zig zag", "op": "offset path", "tw": "twist",
    "mm": "merge paths",
  ]

  /// Checks one layer of `layers` (at index `i`, placed `here`) for what rlottie 0.1 draws
  /// otherwise: its opacity, a 3D rotation on a 2D layer, a track matte named by `tp` that is
  /// not the layer above, inverted masks and mask opacity.
  mutating func noteLayerFidelity(_ layers: [LottieJSON], index i: Int, at here: String) {
    let layer = layers[i]
    noteOpacity(layer["ks"]?["o"], at: here, what: "layer opacity (ks.o)")
    if layer["ddd"]?.integer != 1,
      ["rx", "ry", "or"].contains(where: { Self.isNonZero(layer["ks"]?[$0]) })
    {
      note(here, "a 3D rotation (rx, ry or or) on a 2D layer (rlottie 0.1 draws it unrotated)")
    }
    if let tt = layer["tt"]?.integer, tt != 0, let tp = layer["tp"]?.integer {
      let above = i > 0 ? layers[i - 1]["ind"]?.integer : nil
      if above != tp {
        note(
          here,
          "a track matte by reference (tp: \(tp)) that is not the layer directly above "
            + "(rlottie 0.1 uses the layer above as the matte)")
      }
    }
    for (j, mask) in (layer["masksProperties"]?.items ?? []).enumerated() where mask.members != nil {
      let place = "\(here).masksProperties[\(j)]"
      if mask["inv"]?.numberValue == 1 { note(place, "an inverted mask (inv: true; rlottie 0.1 ignores inv)") }
      if let (low, high) = Self.range(mask["o"]), low != 100 || high != 100 {
        note(place, "mask opacity other than 100 (rlottie 0.1 draws the mask opaque)")
      }
    }
  }

  /// Checks a shape item (`ty` a string) for what rlottie 0.1 draws otherwise.
  mutating func noteItemFidelity(_ item: LottieJSON, type: String, at place: String) {
    if let what = Self.undrawnShapeItems[type] { note(place, what) }
    if let bm = item["bm"]?.integer, bm != 0 {
      note(place, "blend mode \(bm) on a shape item ('\(quoted: type)'; only normal is drawn)")
    }
    switch type {
    case "fl", "st", "gf", "gs", "tr":
      noteOpacity(item["o"], at: place, what: "'\(quoted: type)' opacity")
    default: break
    }
    if type == "gf" || type == "gs", let colours = item["g"]?["p"]?.integer, hasOpacityStops(item["g"]?["k"], colours) {
      note(
        place,
        "a gradient with opacity stops other than 1 (rlottie 0.1 draws its colours wrong; "
          + "stops that are all 1 are drawn)")
    }
    if type == "rp", let transform = item["tr"] { noteRepeaterOpacity(transform, copies: item["c"], at: place) }
  }

  /// Checks a keyframe (an object with `i` or `o` easing handles) for easing that differs
  /// between dimensions, which rlottie 0.1 reads as the first dimension's for all.
  mutating func noteEasing(_ value: LottieJSON, at place: String) {
    for key in ["i", "o"] {
      for axis in ["x", "y"] {
        guard let handles = value[key]?[axis]?.items, handles.count > 1 else { continue }
        let first = handles[0].numberValue
        if handles.contains(where: { $0.numberValue != first }) {
          return note(
            place,
            "easing that differs between dimensions (a keyframe's '\(quoted: key).\(quoted: axis)'; "
              + "rlottie 0.1 eases every dimension as the first)")
        }
      }
    }
  }

  /// An opacity that can leave 0…100 where the copy could not clamp it exactly (a keyframe
  /// segment across 0 or 100, or an easing that overshoots out of 0…100).
  private mutating func noteOpacity(_ property: LottieJSON?, at place: String, what: String) {
    guard let (low, high) = Self.range(property), low < 0 || high > 100 else { return }
    note(
      place,
      "\(quoted: what) that can leave 0…100 between keyframes (bounded by \(Self.shownNumber(low)) to "
        + "\(Self.shownNumber(high)), easing overshoot included; lottie-web clamps it, rlottie 0.1 wraps it around)")
  }

  /// Whether a gradient's stops (`g.k`: static or keyframed) have opacity stops after the
  /// `colours` colour stops (the copy has left out those that are all 1).
  private func hasOpacityStops(_ property: LottieJSON?, _ colours: Int) -> Bool {
    guard let k = property?["k"] else { return false }
    let frames = k.items ?? []
    let arrays: [LottieJSON?] =
      frames.contains(where: { $0.members != nil }) ? frames.flatMap { [$0["s"], $0["e"]] } : [k]
    return arrays.contains { ($0?.items?.count ?? 0) > colours * 4 }
  }

  /// A repeater's start and end opacity: the copy writes static ones for rlottie's steps
  /// (``LottieRlottieCopy``); refused are animated ones that differ, ones with copies that are
  /// not a static whole number, and copies whose opacity leaves 0…100. lottie-web draws a single
  /// copy at `so`, as rlottie does.
  private mutating func noteRepeaterOpacity(_ transform: LottieJSON, copies: LottieJSON?, at place: String) {
    let (so, eo) = (transform["so"], transform["eo"])
    noteOpacity(so, at: place, what: "repeater start opacity (so)")
    if so.map({ $0.serialized() }) == eo.map({ $0.serialized() }) { return }
    let c = copies.flatMap(LottieRlottieCopy.staticNumber)
    // One copy (or none) is drawn at `so` by both.
    if let c, c <= 1, c == c.rounded() { return }
    guard let s = so.flatMap(LottieRlottieCopy.staticNumber), let e = eo.flatMap(LottieRlottieCopy.staticNumber),
      let c, c == c.rounded(), c <= 1e6
    else {
      return note(
        place,
        "a repeater whose start and end opacity (so, eo) differ and are not both fixed over a fixed whole "
          + "number of copies (rlottie 0.1 spaces its copies' opacities otherwise)")
    }
    // The copy wrote `eo` for rlottie's i / c steps: the last copy's opacity is the file's `eo`.
    let last = s + (e - s) * (c - 1) / c
    if min(s, last) < -1e-9 || max(s, last) > 100 + 1e-9 {
      note(
        place,
        "a repeater whose copies' opacity leaves 0…100 (from \(Self.shownNumber(s)) to \(Self.shownNumber(last)); "
          + "lottie-web clamps it, rlottie 0.1 wraps it around)")
    }
  }
}
