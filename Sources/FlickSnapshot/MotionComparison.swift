import FlickScene
import Foundation

/// A motion golden compared with the same properties computed now, number by number.
///
/// **Tolerance**: a value component differs when it moves by more than 10⁻⁶ of its property's
/// travel (the largest range, max − min over the golden's samples, of any of its components); a
/// velocity component when it moves by more than 10⁻⁶ of the velocity's range. Both are floored
/// at 10⁻⁹ so a property that does not move is compared at that absolute precision.
package struct MotionComparison: Sendable {
  /// The relative tolerance, of each property's travel.
  package static let relativeTolerance = 1e-6
  /// The absolute floor of every tolerance.
  package static let absoluteFloor = 1e-9

  /// One property that changed.
  package struct Difference: Sendable, Codable, Equatable {
    package var layerID: String
    package var property: String
    /// What happened: `changed`, `added` (animated now, not in the golden), `removed`.
    package var kind: String
    /// The first sample time where a value or velocity component differs, seconds.
    package var firstTime: Double?
    /// The largest value difference, in the property's unit, and when.
    package var largestValue: Double
    package var largestValueTime: Double?
    /// The largest velocity difference, in units per second, and when.
    package var largestVelocity: Double
    package var largestVelocityTime: Double?
    /// The value tolerance that applied.
    package var tolerance: Double

    /// `right.position: changed from t = 0.3 s; largest value difference 1.2 at 0.45 s, velocity 8.1 at 0.3 s`.
    package var summary: String {
      switch kind {
      case "added": return "\(layerID).\(property): animated now, not in the motion golden"
      case "removed": return "\(layerID).\(property): in the motion golden, no longer animated"
      default:
        func f(_ v: Double) -> String { String(format: "%.6g", v) }
        var text = "\(layerID).\(property): changed from t = \(f(firstTime ?? 0)) s"
        text += "; largest value difference \(f(largestValue))"
        if let t = largestValueTime { text += " at \(f(t)) s" }
        text += ", velocity \(f(largestVelocity))"
        if let t = largestVelocityTime { text += " at \(f(t)) s" }
        return text + " (tolerance \(f(tolerance)))"
      }
    }
  }

  /// The golden.
  package var golden: MotionGolden
  /// The same properties now, at the golden's times.
  package var actual: MotionGolden
  /// What changed, in track order.
  package var differences: [Difference]

  /// Whether nothing changed.
  package var passed: Bool { differences.isEmpty }

  /// Compares `golden` with `tracks` sampled at the golden's times.
  package init(golden: MotionGolden, tracks: PropertyTracks) {
    self.init(golden: golden, actual: MotionGolden.record(tracks: tracks, at: golden.times))
  }

  package init(golden: MotionGolden, actual: MotionGolden) {
    self.golden = golden
    self.actual = actual
    var out: [Difference] = []
    let now = Dictionary(
      actual.tracks.map { ("\($0.layerID)\u{0}\($0.property)", $0) }, uniquingKeysWith: { a, _ in a })
    let before = Set(golden.tracks.map { "\($0.layerID)\u{0}\($0.property)" })
    for old in golden.tracks {
      guard let new = now["\(old.layerID)\u{0}\(old.property)"] else {
        out.append(
          Difference(
            layerID: old.layerID, property: old.property, kind: "removed", largestValue: 0, largestVelocity: 0,
            tolerance: 0))
        continue
      }
      if let d = Self.compare(old, new) { out.append(d) }
    }
    for new in actual.tracks where !before.contains("\(new.layerID)\u{0}\(new.property)") {
      out.append(
        Difference(
          layerID: new.layerID, property: new.property, kind: "added", largestValue: 0, largestVelocity: 0,
          tolerance: 0))
    }
    differences = out
  }

  /// The range (max − min) of the largest-moving component of `rows`.
  static func travel(_ rows: [[Double]]) -> Double {
    guard let first = rows.first else { return 0 }
    return (0..<first.count).map { c in
      let column = rows.map { $0[c] }
      return (column.max() ?? 0) - (column.min() ?? 0)
    }.max() ?? 0
  }

  static func compare(_ old: MotionGolden.Track, _ new: MotionGolden.Track) -> Difference? {
    let valueTolerance = max(absoluteFloor, relativeTolerance * travel(old.samples.map(\.value)))
    let velocityTolerance = max(absoluteFloor, relativeTolerance * travel(old.samples.map(\.velocity)))
    var d = Difference(
      layerID: old.layerID, property: old.property, kind: "changed", largestValue: 0, largestVelocity: 0,
      tolerance: valueTolerance)
    var changed = false
    for (a, b) in zip(old.samples, new.samples) {
      guard a.value.count == b.value.count else {
        changed = true
        d.firstTime = d.firstTime ?? a.time
        continue
      }
      for (x, y) in zip(a.value, b.value) where abs(x - y) > valueTolerance || x.isNaN != y.isNaN {
        changed = true
        d.firstTime = d.firstTime ?? a.time
        if abs(x - y) > d.largestValue {
          d.largestValue = abs(x - y)
          d.largestValueTime = a.time
        }
      }
      for (x, y) in zip(a.velocity, b.velocity) where abs(x - y) > velocityTolerance || x.isNaN != y.isNaN {
        changed = true
        d.firstTime = d.firstTime ?? a.time
        if abs(x - y) > d.largestVelocity {
          d.largestVelocity = abs(x - y)
          d.largestVelocityTime = a.time
        }
      }
    }
    return changed ? d : nil
  }
}
