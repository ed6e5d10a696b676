import FlickMotion
import FlickVideo
import Foundation

/// The notes and warnings `flick render` prints about its GIF outputs.

extension Flick.Render {
  /// A warning when a GIF without a budget is over the 10 MB many code reviews accept.
  static func sizeWarning(_ output: RenderSummary.Output, budget: OutputBudget?) -> String? {
    guard budget == nil, output.format == .gif, output.bytes > OutputBudget.reviewLimit else { return nil }
    return "warning: \(quoted: output.path) is \(OutputBudget.describe(output.bytes)), over the "
      + "\(OutputBudget.describe(OutputBudget.reviewLimit)) many code reviews accept for an image; "
      + "--max-size 10MB fits it (lowering the frame rate, then the width, colours and lossy LZW), "
      + "or choose --gif-fps 25 or --gif-width 480"
  }

  /// A note when a GIF output's frame rate does not map to whole-centisecond delays.
  static func gifWarning(_ session: RenderSession) -> String? {
    guard session.outputs.contains(where: { $0.format == .gif }) else { return nil }
    let fps = FFmpegCommand.gifFPS(renderFPS: session.scene.fps, requested: session.options.gifFPS)
    if fps != session.scene.fps && session.options.gifFPS == nil {
      return "note: GIFs play at most 50 fps; the GIF uses 50 fps (--gif-fps to choose)"
    }
    guard !FFmpegCommand.isExactGIFRate(fps) else { return nil }
    return "note: GIF delays are whole centiseconds, so \(fps) fps alternates delays around "
      + String(format: "%.2f cs", 100.0 / Double(fps))
      + " (the total time stays right); --gif-fps 50, 25, 20 or 10 gives equal delays"
  }
}
