import FlickMotion
import FlickScene
import Foundation

/// A motion golden: every animated property's value and velocity at every frame time and at
/// every event time (an animation beginning or settling), read analytically from the template's
/// property tracks (as `flick trace` reads them), in a compact text file beside the frames.
///
/// ```
/// flick-motion 1
/// property right position 2
/// 0 230 80 0 0
/// 0.1 230 80.55 0 10.9
/// ```
///
/// A `property` line names the layer id and property (percent-encoded) and the number of
/// components; each sample line is the time, the value's components, then the velocity's
/// (units and units per second), each as the shortest text that reads back exactly.
package struct MotionGolden: Sendable, Equatable {
  /// The file name inside a goldens folder.
  package static let fileName = "motion.txt"
  /// The name of the motion check among a report's frames.
  package static let verdictName = "motion"
  /// The first line of the format this build writes and reads.
  static let header = "flick-motion 1"

  /// One sample: the time, the value's components and the velocity's.
  package struct Sample: Sendable, Equatable {
    /// Scene time, seconds.
    package var time: Double
    /// The value's components, in the property's units.
    package var value: [Double]
    /// The velocity's components, in units per second.
    package var velocity: [Double]
  }

  /// One animated property.
  package struct Track: Sendable, Equatable {
    package var layerID: String
    package var property: String
    /// The number of components of the value (1 for a number, 2 for a point, …).
    package var components: Int
    /// Samples at ``MotionGolden/times``, in order.
    package var samples: [Sample]
  }

  /// The sample times, seconds, ascending.
  package var times: [Double]
  /// The tracks, sorted by layer id then property name.
  package var tracks: [Track]

  /// The frame times of a scene (`n / fps`) and its event times within the duration, each once.
  package static func sampleTimes(tracks: PropertyTracks, duration: Double, fps: Int) -> [Double] {
    let frameCount = Scene.frameCount(duration: duration, fps: fps)
    var times = Set((0..<frameCount).map { Double($0) / Double(fps) })
    for t in tracks.eventTimes where t >= 0 && t <= duration { times.insert(t) }
    return times.sorted()
  }

  /// Records every animated property of `tracks` at `times`.
  package static func record(tracks: PropertyTracks, at times: [Double]) -> MotionGolden {
    var tracks = tracks
    var out: [Track] = []
    for (layerID, name) in tracks.animatedProperties {
      guard let property = AnyLayerProperty.named(name) else { continue }
      let samples = tracks.trace(property, layerID: layerID, at: times).map {
        Sample(time: $0.time, value: $0.value, velocity: $0.velocity)
      }
      out.append(Track(layerID: layerID, property: name, components: samples.first?.value.count ?? 0, samples: samples))
    }
    return MotionGolden(times: times, tracks: out)
  }

  /// The manifest's entry for this golden: its file name and SHA-256.
  package var manifestEntry: SnapshotInputs.File {
    let bytes = [UInt8](text.utf8)
    return SnapshotInputs.File(path: Self.fileName, sha256: SHA256.hex(bytes), bytes: bytes.count)
  }

  // MARK: - Text

  static func encode(_ name: String) -> String {
    name.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-_.")))
      ?? name
  }

  /// The shortest text that reads back as exactly `v` (Swift's `description`), `0` for ±0.
  static func number(_ v: Double) -> String { v == 0 ? "0" : "\(v)" }

  /// The file's text.
  package var text: String {
    var lines = [Self.header]
    for track in tracks {
      lines.append("property \(Self.encode(track.layerID)) \(Self.encode(track.property)) \(track.components)")
      for s in track.samples {
        lines.append(([s.time] + s.value + s.velocity).map(Self.number).joined(separator: " "))
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Why a motion golden could not be read.
  package struct ParseError: Error, Sendable, CustomStringConvertible {
    package var line: Int
    package var reason: String
    package var description: String { "line \(line): \(escaped: reason)" }
  }

  /// Reads a motion golden's text.
  package init(text: String) throws(ParseError) {
    // Split on the scalar, not the Character ("\r\n" is one Character), and without each line's
    // CR: a checkout with CRLF line ends (git's `core.autocrlf`) reads the same.
    var lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map {
      String(String.UnicodeScalarView($0.last == "\r" ? $0.dropLast() : $0[...]))
    }
    if lines.last == "" { lines.removeLast() }
    guard lines.first == Self.header else { throw ParseError(line: 1, reason: "expected '\(quoted: Self.header)'") }
    var tracks: [Track] = []
    var times: [Double]?
    var current: Track?
    func finish(_ number: Int) throws(ParseError) {
      guard let track = current else { return }
      let t = track.samples.map(\.time)
      if let times, times != t { throw ParseError(line: number, reason: "the tracks are sampled at different times") }
      times = t
      tracks.append(track)
      current = nil
    }
    for (index, line) in lines.enumerated().dropFirst() {
      let fields = line.split(separator: " ").map(String.init)
      if fields.first == "property" {
        try finish(index + 1)
        guard fields.count == 4, let id = fields[1].removingPercentEncoding,
          let name = fields[2].removingPercentEncoding, let n = Int(fields[3]), (1...64).contains(n)
        else { throw ParseError(line: index + 1, reason: "expected 'property LAYER NAME COMPONENTS'") }
        current = Track(layerID: id, property: name, components: n, samples: [])
        continue
      }
      guard var track = current else { throw ParseError(line: index + 1, reason: "a sample before any property") }
      let values = fields.compactMap(Double.init)
      guard values.count == fields.count, values.count == 1 + 2 * track.components, values.allSatisfy(\.isFinite)
      else {
        throw ParseError(
          line: index + 1, reason: "expected the time and \(quoted: 2 * track.components) finite numbers")
      }
      let n = track.components
      track.samples.append(
        Sample(time: values[0], value: Array(values[1...n]), velocity: Array(values[(n + 1)...])))
      current = track
    }
    try finish(lines.count)
    self.times = times ?? []
    self.tracks = tracks
  }

  package init(times: [Double], tracks: [Track]) {
    self.times = times
    self.tracks = tracks
  }
}
