/// Which frames a render draws and which each output keeps: computed once from the scene's
/// frame rate, the range of frames and the outputs, and handed to the pipeline (the frames to
/// rasterise), to every sink (the frames it gets), to the summary and to the CLI (each output's
/// rate and frame count).
///
/// Every output but a GIF keeps every frame at the render's rate. A GIF plays at most 50 fps
/// (``gifFPS(renderFPS:requested:)``) and, below the render's rate, keeps the frames ffmpeg's
/// `fps` filter would keep (``keepsFrame(_:from:to:)``); Flick sends it only those, read at the
/// GIF's rate, so the GIF is the filter's, byte for byte. A frame that no output keeps is not
/// rasterised: a GIF-only render at 60 fps to a 25 fps GIF draws the 25 frames a second the GIF
/// shows, and several outputs draw the union of what they keep.
///
///     let schedule = try FrameSchedule(renderFPS: 60, frames: 0..<180, outputs: [.gif],
///                                      options: EncodingOptions(gifFPS: 25))
///     schedule.outputs[0].fps        // 25
///     schedule.outputs[0].frameCount // 75
///     schedule.rendered.count        // 75 (frames 0, 2, 4, 7, …)
package struct FrameSchedule: Sendable, Equatable {
  /// The render's frame rate (the scene's), in frames per second.
  package var renderFPS: Int
  /// The scene frame numbers of the render, in order (output timing starts at the first).
  package var frames: Range<Int>
  /// One entry per output, in the order the outputs were given.
  package var outputs: [Output]
  /// The scene frame numbers to rasterise, increasing: those some output keeps (every frame
  /// when `everyFrame` was asked, for a sink that discards them).
  package var rendered: [Int]

  /// What one output gets.
  package struct Output: Sendable, Equatable {
    /// The output's format.
    package var format: OutputFormat
    /// The render's frame rate, in frames per second.
    package var renderFPS: Int
    /// The output file's frame rate, in frames per second (≤ ``renderFPS``; lower only for a GIF).
    package var fps: Int
    /// Frames in the render.
    package var renderFrames: Int

    /// Whether the output keeps every frame of the render.
    package var keepsEveryFrame: Bool { fps == renderFPS }

    /// Whether the output keeps the frame at `position` in the render (0 for its first frame).
    package func keeps(position: Int) -> Bool {
      keepsEveryFrame || FrameSchedule.keepsFrame(position, from: renderFPS, to: fps)
    }

    /// Frames in the output file: the render's, or `round(N × fps / renderFPS)` of `N` for a
    /// resampled GIF.
    package var frameCount: Int {
      keepsEveryFrame ? renderFrames : FrameSchedule.fpsFilterFrame(renderFrames, from: renderFPS, to: fps)
    }

    /// Playing time in seconds (the render's: resampling keeps the length).
    package var duration: Double { Double(renderFrames) / Double(renderFPS) }

    /// The delay of a GIF's last image, in centiseconds, that makes the GIF play for exactly its
    /// ``duration`` (to the centisecond). ffmpeg times each image by its start and the next
    /// one's, both rounded to centiseconds (3, 4, 3… at 30 fps), and gives the last image the
    /// delay of the one before unless told (`-final_delay`): 1.01 s for a 1 s clip at 30 fps,
    /// 0.99 s at 15 fps, 3.01 s for hello.
    ///
    /// At least 2: browsers play a delay under 2 cs as 10 cs, so a resampled GIF whose length
    /// leaves its last image 1 cs (32 frames at 60 fps, 0.53 s, as 27 images at 50 fps: the
    /// last starts at 52 cs) gets 2 and plays 1 cs longer (0.54 s) instead of 0.62 s. The other
    /// images' delays are whole steps of a rate of at most 50 fps, so none is under 2 either.
    package var gifFinalDelay: Int {
      max(2, gifLeftover)
    }

    /// The centiseconds the clip's length leaves after the start of the GIF's last image (ffmpeg
    /// rounds a time to the nearest centisecond, halves away from zero).
    package var gifLeftover: Int {
      func centiseconds(_ frames: Int, _ rate: Int) -> Int { (frames * 200 + rate) / (2 * rate) }
      return centiseconds(renderFrames, renderFPS) - centiseconds(max(0, frameCount - 1), fps)
    }
  }

  /// The schedule of a render at `renderFPS` of the scene frames `frames` into outputs of
  /// `formats` (in order) with `options`; `everyFrame` makes every frame rendered whatever the
  /// outputs keep (`--null`).
  ///
  /// - Throws: ``VideoError/invalidOption(_:)`` when a GIF's rate is outside 1…50 or above the
  ///   render's, or when a GIF keeps no frame of the render.
  package init(
    renderFPS: Int, frames: Range<Int>, outputs formats: [OutputFormat], options: EncodingOptions,
    everyFrame: Bool = false
  ) throws(VideoError) {
    var outputs: [Output] = []
    for format in formats {
      if let refusal = Self.refusal(renderFPS: renderFPS, frames: frames.count, format: format, options: options) {
        throw .invalidOption(refusal.reason)
      }
      let fps = format == .gif ? Self.gifFPS(renderFPS: renderFPS, requested: options.gifFPS) : renderFPS
      outputs.append(Output(format: format, renderFPS: renderFPS, fps: fps, renderFrames: frames.count))
    }
    self.renderFPS = renderFPS
    self.frames = frames
    self.outputs = outputs
    let all = everyFrame || outputs.contains(where: \.keepsEveryFrame)
    self.rendered = frames.filter { n in all || outputs.contains { $0.keeps(position: n - frames.lowerBound) } }
  }

  /// Why an output of `format` cannot be made from `frames` frames rendered at `renderFPS` with
  /// `options`, named in `spelling`: a GIF rate outside 1…50 or above the render's, or one that
  /// keeps no frame of the render; nil when it can. The schedule throws it, and `flick plan` asks
  /// it of every job.
  package static func refusal(
    renderFPS: Int, frames: Int, format: OutputFormat, options: EncodingOptions,
    spelling: EncoderRefusal.Spelling = .commandLine
  ) -> EncoderRefusal? {
    guard format == .gif else { return nil }
    let fps = gifFPS(renderFPS: renderFPS, requested: options.gifFPS)
    let name = spelling.name(.gifFPS)
    guard (1...50).contains(fps) else {
      return EncoderRefusal(
        .gifFPS,
        "\(escaped: name) \(fps) is outside 1…50 (browsers play GIF delays under 2 cs at 10 cs); try 50, 25 or 20")
    }
    guard fps <= renderFPS else {
      return EncoderRefusal(
        .gifFPS, "\(escaped: name) \(fps) is above the render's \(renderFPS) fps; frames cannot be invented")
    }
    guard Output(format: format, renderFPS: renderFPS, fps: fps, renderFrames: frames).frameCount > 0 else {
      return EncoderRefusal(
        .gifFPS,
        "the render's \(frames) frames at \(renderFPS) fps make no frame at \(fps) fps; "
          + "render more frames or choose a higher \(escaped: name)")
    }
    return nil
  }

  /// The GIF frame rate for a render at `fps`: `requested` if given, otherwise `fps` itself up
  /// to 50 (browsers slow delays under 2 cs down to 10 cs, so faster GIFs play slower).
  package static func gifFPS(renderFPS fps: Int, requested: Int?) -> Int {
    requested ?? min(fps, 50)
  }

  /// Whether a GIF at `fps` has the same delay on every frame (GIF delays are whole
  /// centiseconds, so only 100 / fps ∈ ℕ is exact: 50, 25, 20, 10, …).
  package static func isExactGIFRate(_ fps: Int) -> Bool {
    fps > 0 && 100 % fps == 0
  }

  /// Whether ffmpeg's `fps` filter (default rounding, to the nearest with halves up) resampling
  /// from `inputFPS` to `outputFPS` (≤ `inputFPS`) keeps input frame `n`: output frame `j`
  /// shows the last input frame `n` with `round(n × out / in) ≤ j`, so `n` is shown exactly when
  /// `n + 1` rounds to a later output frame, the last frame included (the filter makes
  /// `round(N × out / in)` frames of `N`). Checked against ffmpeg 5.1 for eleven rate pairs and
  /// up to 600 frames (`GIFResamplingTests`).
  package static func keepsFrame(_ n: Int, from inputFPS: Int, to outputFPS: Int) -> Bool {
    fpsFilterFrame(n + 1, from: inputFPS, to: outputFPS) > fpsFilterFrame(n, from: inputFPS, to: outputFPS)
  }

  /// The output frame of ffmpeg's `fps` filter at which input frame `n` (at `inputFPS`) falls:
  /// `round(n × outputFPS / inputFPS)`, halves up. Frames `0..<N` make `fpsFilterFrame(N)` frames.
  package static func fpsFilterFrame(_ n: Int, from inputFPS: Int, to outputFPS: Int) -> Int {
    (2 * n * outputFPS + inputFPS) / (2 * inputFPS)
  }
}
