import FlickMotion
import Foundation

/// What Flick changes in the copy rlottie is given, so that rlottie 0.1 reads valid files as
/// lottie-web and lottie-ios do instead of refusing them whole (``LottieJSON/serialized()``
/// also puts the keys whose place matters to rlottie first).
///
/// - Sizes rlottie reads as whole numbers (its parser's `GetInt`, which fails the whole file on
///   `300.5` or even `300.0`): the canvas `w` and `h` are rounded up (the canvas gains less than
///   one point of transparent edge, and Flick's canvas is that size too); a layer's `w`, `h`,
///   `sw`, `sh` (a precomposition's clip, a solid's size) and an asset's `w` and `h` are rounded
///   to the nearest whole point (lottie-web clips at the fraction: at most half a point apart).
/// - A layer's whole numbers rlottie reads with `GetInt` (`ind`, `parent`, `ty`, `tt`, `bm`,
///   `ddd`, `ao`; ``LottieLayerIntegers`` refuses any other value) and an asset's numeric `id`,
///   when written with a fraction or exponent (`1.0`, `1e0`), are written as their digits.
/// - A 2D layer's `rz` is read as lottie-web reads it: the rotation in place of `r` when the
///   transform has `rx` (a 3D rotation), else ignored and left out (rlottie 0.1 draws nothing for
///   a 2D transform with `rz`); a layer without `ddd` gets `ddd: 0` (rlottie reads it as 3D,
///   lottie-web as 2D).
/// - A stroke's dash list is written in the order rlottie reads by place, from the names
///   lottie-web reads (``LottieDashList``); an all-zero one is left out (a solid stroke).
/// - Opacities outside 0…100 clamped, gradient opacity stops that are all 1, a repeater's end
///   opacity, masks of mode `n` and a layer's `ip`/`op` beyond ±2³¹ (``fidelityShapes(_:depth:)``
///   and the other rewrites in LottieRlottieCopy+Fidelity.swift).
enum LottieRlottieCopy {
  static func rewrite(_ document: LottieJSON) -> LottieJSON {
    guard var root = document.members else { return document }
    for k in root.indices {
      switch root[k].key {
      case "w", "h": root[k].value = whole(root[k].value, .up)
      case "layers": root[k].value = layers(root[k].value)
      case "assets":
        guard let assets = root[k].value.items else { continue }
        root[k].value = .array(
          assets.map { asset in
            guard var members = asset.members else { return asset }
            for j in members.indices {
              switch members[j].key {
              case "w", "h", "id": members[j].value = whole(members[j].value, .toNearestOrAwayFromZero)
              case "layers": members[j].value = layers(members[j].value)
              default: break
              }
            }
            return .object(members)
          })
      default: break
      }
    }
    return .object(root)
  }

  private static func layers(_ list: LottieJSON) -> LottieJSON {
    guard let items = list.items else { return list }
    return .array(items.map(layer))
  }

  private static func layer(_ layer: LottieJSON) -> LottieJSON {
    guard var members = layer.members else { return layer }
    let is3D = layer["ddd"]?.double == 1
    for j in members.indices {
      switch members[j].key {
      case "w", "h", "sw", "sh": members[j].value = whole(members[j].value, .toNearestOrAwayFromZero)
      case let key where LottieLayerIntegers.keys.contains(where: { $0.key == key }):
        // Checked whole (LottieLayerIntegers): `1.0` is written `1`.
        members[j].value = whole(members[j].value, .toNearestOrAwayFromZero)
      case "ks": members[j].value = transform(members[j].value, is3D: is3D)
      case "shapes": members[j].value = fidelityShapes(LottieDashList.shapes(members[j].value))
      case "ip", "op": members[j].value = layerTime(members[j].value)
      default: break
      }
    }
    // Masks of mode `n`, which lottie-web ignores, are left out; with none left, the layer has none.
    if let masks = members.firstIndex(where: { $0.key == "masksProperties" }) {
      if let kept = drawnMasks(members[masks].value) {
        members[masks].value = kept
      } else {
        members.remove(at: masks)
        members.removeAll { $0.key == "hasMask" }
      }
    }
    // rlottie 0.1 reads a layer without 'ddd' as 3D (its rotation from 'rz', 'r' ignored);
    // lottie-web and lottie-ios read it as 2D, and 3D layers are refused, so it is written 2D.
    if layer["ddd"] == nil { members.append(LottieJSON.Member(key: "ddd", value: .number("0"), offset: 0)) }
    return .object(members)
  }

  /// A layer's transform: its opacity clamped (``clampedOpacity(_:)``) and, in 2D, its `rz` as
  /// lottie-web reads it. lottie-web's transform takes its rotation from `rz` only with `rx`
  /// (a 3D rotation), else from `r`, ignoring `rz`; rlottie 0.1 drew nothing for a 2D transform
  /// with `rz`. Without `rx`, `rz` is left out; with `rx`, `rz` is written as `r` in its place
  /// (a 3D rotation about `rx` or `ry` is refused).
  private static func transform(_ ks: LottieJSON, is3D: Bool) -> LottieJSON {
    guard var transform = ks.members else { return ks }
    if let o = transform.firstIndex(where: { $0.key == "o" }) {
      transform[o].value = clampedOpacity(transform[o].value)
    }
    if !is3D, let rz = transform.firstIndex(where: { $0.key == "rz" }) {
      if transform.contains(where: { $0.key == "rx" }) {
        transform.removeAll { $0.key == "r" }
        for j in transform.indices where transform[j].key == "rz" { transform[j].key = "r" }
        // rlottie 0.1 fails the whole file on `rx` in a 2D transform: left out when no rotation
        // about x or y is there (one that is is refused).
        if !["rx", "ry", "or"].contains(where: { LottieFeatureInspector.isNonZero(ks[$0]) }) {
          transform.removeAll { ["rx", "ry", "or"].contains($0.key) }
        }
      } else {
        transform.remove(at: rz)
      }
    }
    return .object(transform)
  }

  /// A number rlottie reads with `GetInt` written as one: without a fraction or exponent.
  private static func whole(_ value: LottieJSON, _ rule: FloatingPointRoundingRule) -> LottieJSON {
    guard case .number(let text) = value, text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }),
      let v = Double(text), v.isFinite, abs(v) < 2_000_000_000
    else { return value }
    return .number(String(Int(v.rounded(rule))))
  }
}
