import FlickMotion

extension Scene {
  /// Animations of ``animator`` that another key hides: two keys of one layer writing some of
  /// the same state (`scaleXY` and `scaleX`, or one property under two `forKey:` names). Keys
  /// are written in first-use order and each keeps writing its last value, so an animation
  /// under the earlier key that runs (or starts) once the later key has started is not seen.
  /// One problem per pair of keys, naming both.
  var keyConflicts: [SceneError] {
    guard let animator else { return [] }
    let all = animator.occupancies
    var order: [AnimationKey] = []
    var byKey: [AnimationKey: [Animator<LayerTree>.Occupancy]] = [:]
    for o in all {
      if byKey[o.key] == nil { order.append(o.key) }
      byKey[o.key, default: []].append(o)
    }
    // Keys of each layer, in first-use order: only keys of one layer can hide each other.
    var layers: [String] = []
    var layerKeys: [String: [AnimationKey]] = [:]
    for key in order {
      if layerKeys[key.object] == nil { layers.append(key.object) }
      layerKeys[key.object, default: []].append(key)
    }
    var problems: [SceneError] = []
    for layer in layers {
      let keys = layerKeys[layer] ?? []
      for (i, early) in keys.enumerated() {
        for late in keys[(i + 1)...] {
          guard let earlyRuns = byKey[early], let lateRuns = byKey[late],
            let lateStart = lateRuns.map(\.start).min()
          else { continue }
          for run in earlyRuns where run.end > lateStart || run.start >= lateStart {
            let a = Self.layerPropertyName(run.propertyName, of: early.object)
            guard
              let other = lateRuns.first(where: {
                AnyLayerProperty.writesOverlap(a, Self.layerPropertyName($0.propertyName, of: late.object))
              })
            else { continue }
            let b = Self.layerPropertyName(other.propertyName, of: late.object)
            let names = "\"\(escaped: early.key)\" and \"\(escaped: late.key)\""
            problems.append(
              SceneError(
                call: "animations of \"\(escaped: early.object)\" under keys \(names)",
                reason:
                  "both write \(b == a ? a : "\(a) and \(b)") at once, so the one under \"\(escaped: late.key)\" "
                  + "(from \(Self.seconds(lateStart)) s) hides the one under \"\(escaped: early.key)\" "
                  + "(\(Self.seconds(run.start))–\(Self.seconds(run.end)) s); animate one state under one key"))
            break
          }
        }
      }
    }
    return problems
  }

  /// `scaleXY` for `card.scaleXY` (the name a layer property takes on a ``LayerTree``).
  private static func layerPropertyName(_ name: String, of layerID: String) -> String {
    let prefix = layerID + "."
    return name.hasPrefix(prefix) ? String(name.dropFirst(prefix.count)) : name
  }

  private static func seconds(_ t: Double) -> String {
    t.isFinite ? LayerPropertyDescriptor.format((t * 1000).rounded() / 1000) : "∞"
  }
}
