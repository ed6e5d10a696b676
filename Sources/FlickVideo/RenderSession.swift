import FlickRaster
import FlickScene
import Foundation

/// Renders a ``Scene`` frame by frame and streams every frame to one encoder per output, so
/// several outputs share one rasterisation.
public struct RenderSession: Sendable {
  /// The scene to render.
  public var scene: Scene
  /// Destination paths; the format of each follows its extension.
  public var outputs: [String]

  public init(scene: Scene, outputs: [String]) {
    self.scene = scene
    self.outputs = outputs
  }

  /// Renders every frame to every output.
  ///
  /// - Parameter progress: Called after each frame with (frames done, total).
  /// - Throws: ``VideoError`` or ``RasterError``; no output is left half-written.
  public func run(progress: (Int, Int) -> Void = { _, _ in }) throws {
    var formats: [(String, OutputFormat)] = []
    for path in outputs {
      guard let format = OutputFormat(path: path) else { throw VideoError.unsupportedFormat(path: path) }
      formats.append((path, format))
    }
    let renderer = Renderer()
    let width = Int(scene.size.width.rounded())
    let height = Int(scene.size.height.rounded())
    var encoders: [FFmpegEncoder] = []
    do {
      for (path, format) in formats {
        encoders.append(
          try FFmpegEncoder(output: path, format: format, width: width, height: height, fps: scene.fps))
      }
      let total = scene.frameCount
      for index in 0..<total {
        let frame = try renderer.render(scene.renderTree(at: scene.time(ofFrame: index)))
        for encoder in encoders { try encoder.write(frame) }
        progress(index + 1, total)
      }
      for encoder in encoders { try encoder.finish() }
    } catch {
      for encoder in encoders { encoder.cancel() }
      throw error
    }
  }
}
