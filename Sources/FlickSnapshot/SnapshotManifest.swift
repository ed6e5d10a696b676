import FlickMotion
import FlickRaster
import FlickTemplates
import Foundation

/// What a snapshot folder holds and how it was made: `manifest.json` beside the PNGs.
///
/// `flick verify` reads it to render the same times at the same scale, and to explain a failure
/// when the renderer that made the goldens differs from the current one.
package struct SnapshotManifest: Sendable, Equatable, Codable {
  /// The manifest format version this build writes and reads.
  package static let formatVersion = 1
  /// The file name inside a snapshot folder.
  package static let fileName = "manifest.json"

  /// One snapshot frame.
  package struct Entry: Sendable, Equatable, Codable {
    /// The time as written (`25%`, `end`, `1.2s`, `frame:30`).
    package var time: SnapshotTime
    /// The scene time it resolved to, in seconds.
    package var seconds: Double
    /// The PNG file name inside the folder.
    package var file: String

    package init(time: SnapshotTime, seconds: Double, file: String) {
      self.time = time
      self.seconds = seconds
      self.file = file
    }
  }

  /// Manifest format version (``formatVersion``).
  package var format: Int = SnapshotManifest.formatVersion
  /// The template file name.
  package var template: String
  /// SHA-256 of the template file's bytes.
  package var templateHash: String
  /// The template options given (`--set`, `--params`), in order.
  package var parameters: [String]
  /// SHA-256 of the parameters (including the contents of any parameter file).
  package var parameterHash: String
  /// Frame width in pixels, after scaling.
  package var width: Int
  /// Frame height in pixels, after scaling.
  package var height: Int
  /// Pixels per point used to render (1 = the template's own size).
  package var scale: Double
  /// The scene's frames per second.
  package var fps: Int
  /// The scene's duration in seconds.
  package var duration: Double
  /// The snapshots, in the order given.
  package var frames: [Entry]
  /// The Flick version that rendered them.
  package var flickVersion: String
  /// The renderer libraries and CPU that rendered them.
  package var renderer: RendererFingerprint
  /// What the frames were rendered from, stored in `inputs/` (nil for goldens made before Flick
  /// stored them, or when an input could not be stored).
  package var inputs: SnapshotInputs?
  /// The motion golden (``MotionGolden``, `motion.txt`) and its SHA-256, when one was recorded.
  package var motion: SnapshotInputs.File?

  package init(
    template: String, templateHash: String, parameters: [String], parameterHash: String, width: Int,
    height: Int, scale: Double, fps: Int, duration: Double, frames: [Entry], flickVersion: String,
    renderer: RendererFingerprint = .current, inputs: SnapshotInputs? = nil
  ) {
    self.inputs = inputs
    self.template = template
    self.templateHash = templateHash
    self.parameters = parameters
    self.parameterHash = parameterHash
    self.width = width
    self.height = height
    self.scale = scale
    self.fps = fps
    self.duration = duration
    self.frames = frames
    self.flickVersion = flickVersion
    self.renderer = renderer
  }

  /// Reads the motion golden the manifest lists from `directory`, checked against its SHA-256.
  ///
  /// - Returns: nil when the manifest lists none.
  /// - Throws: ``SnapshotError/damagedInput(path:reason:)`` when it is missing, altered or unreadable.
  package func readMotion(from directory: String) throws(SnapshotError) -> MotionGolden? {
    guard let motion else { return nil }
    let path = (directory as NSString).appendingPathComponent(MotionGolden.fileName)
    guard
      let data = try ContainedPath.read(
        MotionGolden.fileName, in: directory, what: "motion golden", source: directory,
        maximumBytes: ContainedPath.maximumTextBytes)
    else {
      throw .damagedInput(path: path, reason: "missing (the manifest lists a motion golden)")
    }
    guard SHA256.hex([UInt8](data)) == motion.sha256 else {
      throw .damagedInput(path: path, reason: "its SHA-256 is not the manifest's")
    }
    do {
      return try MotionGolden(text: String(decoding: data, as: UTF8.self))
    } catch {
      throw .damagedInput(path: path, reason: "not a motion golden: \(escaped: error.description)")
    }
  }

  /// SHA-256 (hex) of `bytes`.
  package static func hash<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 { SHA256.hex(bytes) }

  /// The PNG file name for a snapshot time: `<label>.png`.
  package static func fileName(for time: SnapshotTime) -> String { "\(time.label).png" }

  /// Reads `manifest.json` from `directory`; nil when there is none.
  ///
  /// - Throws: ``SnapshotError/invalidManifest(path:reason:)`` when it exists but cannot be decoded.
  package static func read(from directory: String) throws(SnapshotError) -> SnapshotManifest? {
    let path = (directory as NSString).appendingPathComponent(fileName)
    guard
      let data = try ContainedPath.read(
        fileName, in: directory, what: "manifest", source: directory, maximumBytes: ContainedPath.maximumTextBytes)
    else { return nil }
    do {
      let manifest = try JSONDecoder().decode(SnapshotManifest.self, from: data)
      guard manifest.format == formatVersion else {
        throw SnapshotError.invalidManifest(
          path: path, reason: "format \(quoted: manifest.format) is not \(formatVersion); re-record with this Flick")
      }
      try manifest.validate(path: path)
      return manifest
    } catch let error as SnapshotError {
      throw error
    } catch {
      // FILE:LINE:COL of the value (or the JSON mistake) the problem is about.
      let site = JSONDecodingSite.locate(error, in: data).map { ":\($0.line):\($0.column)" } ?? ""
      throw .invalidManifest(path: path + site, reason: DecodingProblem.reason(error))
    }
  }

  /// Checks what the manifest names stays inside its folder: every frame file is a plain `.png`
  /// file name (no `/`, no `..`, not hidden), listed once. A goldens folder may come from someone
  /// else's pull request, and `flick snapshot` deletes files the previous manifest listed.
  ///
  /// - Throws: ``SnapshotError/unsafePath(_:reason:)`` naming the entry.
  package func validate(path: String) throws(SnapshotError) {
    try inputs?.validate(path: path)
    // The numbers verify renders with: the same ranges as the command line's.
    guard Renderer.acceptsScale(scale) else {
      throw .invalidManifest(
        path: path, reason: "'scale' is \(scale); expected a number in \(escaped: Renderer.scaleRange) as --scale takes"
      )
    }
    guard (1...32767).contains(width), (1...32767).contains(height) else {
      throw .invalidManifest(path: path, reason: "'width' × 'height' is \(width)×\(height); expected 1…32767 each")
    }
    guard (1...1000).contains(fps), duration.isFinite, duration >= 0 else {
      throw .invalidManifest(
        path: path, reason: "'fps' \(fps) or 'duration' \(duration) is out of range; expected 1…1000 and a duration ≥ 0"
      )
    }
    if let motion, motion.path != MotionGolden.fileName {
      throw .unsafePath(
        "motion file '\(quoted: motion.path)' in \(quoted: path)",
        reason: "the motion golden is always \(quoted: MotionGolden.fileName)")
    }
    var seen: Set<String> = []
    for entry in frames {
      guard ContainedPath.isPlainName(entry.file), entry.file.lowercased().hasSuffix(".png") else {
        throw .unsafePath(
          "frame file '\(quoted: entry.file)' in \(quoted: path)",
          reason: "a frame file must be a plain .png file name inside the folder")
      }
      // verify reads `<label>.png` for a time and names its report folder by the label: a file
      // named otherwise, or two times with one label (`1s`, `1.0s`), would check one golden twice
      // and leave the listed file unchecked.
      guard entry.file == Self.fileName(for: entry.time) else {
        throw .invalidManifest(
          path: path,
          reason: "frame file '\(quoted: entry.file)' is not the file of its time '\(quoted: entry.time.description)' "
            + "('\(quoted: Self.fileName(for: entry.time))'); record the goldens again with 'flick snapshot'")
      }
      guard seen.insert(entry.file.lowercased()).inserted else {
        throw .invalidManifest(path: path, reason: "frame file '\(quoted: entry.file)' is listed twice")
      }
    }
  }

  /// Writes `manifest.json` into `directory` atomically (pretty-printed, keys sorted).
  package func write(to directory: String) throws(SnapshotError) {
    let path = (directory as NSString).appendingPathComponent(Self.fileName)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    do {
      try AtomicFile.write(Data(try encoder.encode(self)) + Data("\n".utf8), to: path)
    } catch let error as SnapshotError {
      throw error
    } catch {
      throw .unwritableFile(path: path, reason: "\(escaped: error)")
    }
  }
}
