import FlickMotion
import FlickRaster
import FlickScene
import FlickSnapshot
import FlickTemplates
import FlickVideo
import Foundation

/// Builds job ids: SHA-256 over a canonical text of everything that decides a job's bytes.
///
/// The text lists the Flick version, the renderer fingerprint (Cairo, Pango, pixman, FreeType,
/// HarfBuzz, CPU architecture), the x264 thread count, the gifsicle version (or none), the SHA-256 of the template file and of
/// every file the scene reads (images, font files), the resolved parameter values (so a params
/// or data file counts by the values it gives, and editing one CSV row changes only that row's
/// jobs), the fps, the frame range, the size and scale, every encoder setting, and the output
/// paths (so two jobs never share an id). Anything else (wall clock, machine, CPU count) is
/// deliberately left out: the same job must have the same id and bytes everywhere.
struct JobIdentity {
  let header: [String]
  private var fileHashes: [String: String] = [:]

  /// - Parameter gifsicle: The gifsicle GIFs are optimised with (``GIFOptimizer/identity(environment:)``):
  ///   it changes a GIF's bytes, not its pixels.
  init(flickVersion: String, renderer: RendererFingerprint, gifsicle: String = GIFOptimizer.identity()) {
    header = [
      "flick-job 1", "flick \(flickVersion)", "renderer \(renderer.description)",
      "x264-threads \(FFmpegCommand.x264Threads) vp9-threads \(FFmpegCommand.vp9Threads)",
      "gifsicle \(gifsicle)",
    ]
  }

  static func hash(_ lines: [String]) -> String {
    SnapshotManifest.hash(Array(lines.joined(separator: "\n").utf8))
  }

  /// The hash of a file's bytes (cached: each file is read once per plan), read through the
  /// bounded reader within the largest cap a file a job reads has (a picture or a font, 256 MiB):
  /// a FIFO, a device or a larger file put in its place since it was loaded hashes as "missing".
  mutating func hash(file path: String) -> String {
    if let known = fileHashes[path] { return known }
    let digest =
      (try? AssetFile.read(path, maximumBytes: SnapshotInputs.maximumAssetBytes, kind: "a job's input"))
      .map { SnapshotManifest.hash($0) } ?? "missing"
    fileHashes[path] = digest
    return digest
  }

  /// The files `scene` reads as it draws: font files, pictures and Lottie files.
  static func assets(of scene: Scene) -> Set<String> {
    var assets = Set(scene.fontFiles)
    func walk(_ layer: Layer) {
      if let image = layer.contents { assets.insert(image.path) }
      if let lottie = layer.lottie { assets.insert(lottie.path) }
      if let mask = layer.mask { walk(mask) }
      layer.sublayers.forEach(walk)
    }
    scene.layers.forEach(walk)
    return assets
  }

  /// The lines for a template with its parameters: file hashes and resolved values.
  mutating func content(template: String, scene: Scene, values: [String: JSON5Value]) -> [String] {
    var lines = header + ["template \(hash(file: template))"]
    // Shape outlines read from files (`path: { svg: … }`) are in the scene, not in the template's
    // bytes: their geometry is part of the content.
    var outlines: [String] = []
    func walk(_ layer: Layer) {
      if case .shape(let shape) = layer.content { outlines.append(String(describing: shape.path.elements)) }
      if let mask = layer.mask { walk(mask) }
      layer.sublayers.forEach(walk)
    }
    scene.layers.forEach(walk)
    for path in Self.assets(of: scene).sorted() { lines.append("asset \(hash(file: path))") }
    if !outlines.isEmpty { lines.append("outlines \(Self.hash(outlines))") }
    for (name, value) in values.sorted(by: { $0.key < $1.key }) {
      lines.append("param \(name) \(Self.canonical(value))")
    }
    return lines
  }

  /// Adds the output settings to `content`.
  func settings(content: [String], width: Int, height: Int, scale: Double, fps: Int, options o: EncodingOptions)
    -> [String]
  {
    content + [
      "size \(width)x\(height) scale \(scale) fps \(fps)",
      "encoding crf \(o.crf.map(String.init) ?? "-") preset \(o.preset) pad \(o.pad) dither \(o.dither.rawValue) "
        + "plays \(o.plays) gif-fps \(o.gifFPS.map(String.init) ?? "-") gif-width \(o.gifWidth.map(String.init) ?? "-")",
    ]
  }

  /// A JSON5 value as compact JSON with sorted keys (positions left out).
  static func canonical(_ v: JSON5Value) -> String {
    switch v.kind {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .number(let d): return d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
    case .string(let s): return JSONText.quoted(s)
    case .array(let items): return "[" + items.map(canonical).joined(separator: ",") + "]"
    case .object(let members):
      return "{"
        + members.sorted { $0.key < $1.key }.map { JSONText.quoted($0.key) + ":" + canonical($0.value) }
        .joined(separator: ",") + "}"
    }
  }
}
