/// Where a render is, reported after every delivered frame and at each stage change.
public struct RenderProgress: Sendable, Equatable {
  /// The phases of a render.
  public enum Stage: String, Sendable {
    /// Frames are being rasterised and streamed to the outputs.
    case render
    /// All frames are out; encoders are finishing (a GIF's palette pass happens here).
    case finish
    /// Every output is in place.
    case done
  }

  /// The current phase.
  public var stage: Stage
  /// Frames delivered to every output so far.
  public var framesDone: Int
  /// Frames in the render.
  public var totalFrames: Int

  public init(stage: Stage, framesDone: Int, totalFrames: Int) {
    self.stage = stage
    self.framesDone = framesDone
    self.totalFrames = totalFrames
  }
}

/// What a finished render produced.
public struct RenderSummary: Sendable, Equatable {
  /// One finished output.
  public struct Output: Sendable, Equatable {
    /// The destination as given.
    public var path: String
    /// The format written.
    public var format: OutputFormat
    /// Size on disk in bytes (all files of a PNG sequence).
    public var bytes: Int
    /// Frames in the output (a GIF at a lower rate has fewer).
    public var frames: Int
    /// Playing time in seconds.
    public var duration: Double
  }

  /// The outputs, in the order they were requested.
  public var outputs: [Output]
  /// Frames rendered.
  public var frames: Int
  /// Pixel size of the frames.
  public var width: Int
  public var height: Int
}
