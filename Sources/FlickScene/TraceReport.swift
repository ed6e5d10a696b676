import FlickMotion
import Foundation

/// What `flick trace` prints, as a library: the sample times at a rate and the CSV and JSON
/// texts of the samples. `flick trace` and `flick studio`'s `/api/trace` both print these,
/// so the page plots exactly the numbers of the command.
package enum TraceReport {
  /// The most samples a trace takes.
  package static let maximumSamples = 2_000_000

  /// The sample count at `fps` over `duration` seconds (t = n/fps, the end excluded, at least one).
  package static func sampleCount(duration: Double, fps: Double) -> Int {
    max(1, Int((duration * fps - 1e-9).rounded(.up)))
  }

  /// The times `n / fps` for the ``sampleCount(duration:fps:)`` samples.
  package static func frameTimes(duration: Double, fps: Double) -> [Double] {
    (0..<sampleCount(duration: duration, fps: fps)).map { Double($0) / fps }
  }

  /// A number of the CSV text: ten significant digits, `inf`/`nan` as C prints them.
  private static func f(_ v: Double) -> String {
    if v == 0 { return "0" }
    return String(format: "%.10g", v)
  }

  /// A number of the JSON text: the CSV's digits, `null` when not finite (``JSONText/number(_:significantDigits:)``).
  private static func j(_ v: Double) -> String { JSONText.number(v, significantDigits: 10) }

  /// Column names for `count` components.
  private static func columns(_ prefix: String, _ property: AnyLayerProperty, count: Int) -> [String] {
    let names = property.componentNames
    if names.isEmpty { return [prefix] }
    return (0..<count).map { i in
      let stop = count > names.count ? "[\(i / names.count)]" : ""
      return "\(prefix)\(stop).\(names[i % names.count])"
    }
  }

  /// `--format csv`: a header, then one row per sample.
  package static func csv(_ samples: [TraceSample], _ property: AnyLayerProperty) -> String {
    let width = samples.map(\.value.count).max() ?? 1
    let header = ["t"] + columns("value", property, count: width) + columns("velocity", property, count: width)
    var lines = [header.joined(separator: ",")]
    for s in samples {
      let pad = { (c: [Double]) in c.map(f) + Array(repeating: "", count: width - c.count) }
      lines.append(([f(s.time)] + pad(s.value) + pad(s.velocity)).joined(separator: ","))
    }
    return lines.joined(separator: "\n")
  }

  /// `--format json`: the layer, property, type, unit, side and samples.
  package static func json(
    _ samples: [TraceSample], _ property: AnyLayerProperty, layer: String, side: String
  ) -> String {
    let scalar = property.componentNames.isEmpty
    func list(_ c: [Double]) -> String {
      scalar && c.count == 1 ? j(c[0]) : "[" + c.map(j).joined(separator: ", ") + "]"
    }
    let rows = samples.map {
      "    {\"t\": \(j($0.time)), \"value\": \(list($0.value)), \"velocity\": \(list($0.velocity))}"
    }
    return """
      {
        "layer": \(JSONText.quoted(layer)),
        "property": \(JSONText.quoted(property.name)),
        "type": \(JSONText.quoted(property.valueTypeName)),
        "unit": \(JSONText.quoted(property.descriptor?.unit.rawValue ?? "")),
        "side": \(JSONText.quoted(side)),
        "samples": [
      \(rows.joined(separator: ",\n"))
        ]
      }
      """
  }
}
