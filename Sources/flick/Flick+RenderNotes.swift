import FlickMotion
import FlickVideo
import Foundation

/// What `flick render` checks and says about its GIF outputs: `--max-size`, and the notes and
/// warnings it prints.

extension Flick.Render {
  /// Refuses `--max-size` with an output it cannot fit (GIF, MP4 and WebM are fitted).
  static func checkMaxSize(_ options: EncodingOptions, targets: [OutputTarget]) throws {
    guard options.maxSize != nil else { return }
    for target in targets {
      if let reason = OutputBudget.refusal(for: target.format) {
        throw CommandError.usage(
          "--max-size fits GIF, MP4 and WebM outputs, not \(quoted: target.path) (\(target.format.rawValue)): "
            + "\(escaped: reason)")
      }
    }
  }

  /// A warning when a GIF without a budget is over the 10 MB many code reviews accept.
  static func sizeWarning(_ output: RenderSummary.Output, budget: OutputBudget?) -> String? {
    guard budget == nil, output.format == .gif, output.bytes > OutputBudget.reviewLimit else { return nil }
    return "warning: \(quoted: output.path) is \(OutputBudget.describe(output.bytes)), over the "
      + "\(OutputBudget.describe(OutputBudget.reviewLimit)) many code reviews accept for an image; "
      + "--max-size 10MB fits it (lowering the frame rate, then the width, colours and lossy LZW), "
      + "or choose --gif-fps 25 or --gif-width 480"
  }

  /// A note when a GIF output's frame rate (in `schedule`) was capped at 50 fps or does not
  /// map to whole-centisecond delays; `requested` is `--gif-fps`. With `--max-size` (`fitted`)
  /// the rate of the file is known only after the render: the delay note then comes from
  /// ``gifTimingNote(fps:frames:)`` with the summary's rate instead.
  static func gifWarning(_ schedule: FrameSchedule, requested: Int?, fitted: Bool = false) -> String? {
    guard let gif = schedule.outputs.first(where: { $0.format == .gif }) else { return nil }
    if !gif.keepsEveryFrame && requested == nil {
      return "note: GIFs play at most 50 fps; the GIF uses 50 fps (--gif-fps to choose)"
    }
    return fitted ? nil : gifTimingNote(fps: gif.fps, frames: gif.frameCount)
  }

  /// The note that a GIF of `frames` frames at `fps` has delays of alternating centiseconds, or
  /// nil when its delays are equal (a rate GIF delays show exactly) or it holds one image.
  static func gifTimingNote(fps: Int, frames: Int) -> String? {
    guard frames > 1, !FrameSchedule.isExactGIFRate(fps) else { return nil }
    return "note: GIF delays are whole centiseconds, so \(fps) fps alternates delays around "
      + String(format: "%.2f cs", 100.0 / Double(fps))
      + " (the total time stays right); --gif-fps 50, 25, 20 or 10 gives equal delays"
  }

  /// The note that GIFs go without gifsicle's pass because it is not installed, when some
  /// output is a GIF that would go through it (not with `--every-frame`); nil otherwise.
  static func gifsicleNote(_ options: EncodingOptions, formats: [OutputFormat]) -> String? {
    guard options.optimizesGIF, options.mergesIdenticalFrames, formats.contains(.gif) else { return nil }
    return GIFOptimizer.locate() == nil ? GIFOptimizer.overrideWarning() ?? GIFOptimizer.absentNote : nil
  }
}
