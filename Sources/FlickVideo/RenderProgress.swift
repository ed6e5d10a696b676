/// Where a render is, reported after every delivered frame and at each stage change.
public struct RenderProgress: Sendable, Equatable {
  /// The phases of a render.
  public enum Stage: String, Sendable {
    /// Frames are being rasterised and streamed to the outputs.
    case render
    /// The frames are rendered a second time for the outputs that need two passes (a GIF,
    /// encoded with the palette the first pass made).
    case secondPass = "second-pass"
    /// All frames are out; encoders are finishing.
    case finish
    /// Every output is in place.
    case done
  }

  /// The current phase.
  public var stage: Stage
  /// Frames delivered so far, over all passes.
  public var framesDone: Int
  /// Frames to deliver: the frames of the render, twice when an output needs two passes.
  public var totalFrames: Int
  /// What the ``Stage/finish`` stage is working on, when it takes a while (nil otherwise): a
  /// render reports each step, and a GIF's encoding pass frame by frame, with the same stage
  /// and frame counts.
  public var step: Step? = nil

  /// A step of the finish stage: a GIF's frames go to ffmpeg only once the palette is known, so
  /// its encoding pass, gifsicle and a `--max-size` search all run after the last frame.
  public enum Step: Sendable, Equatable {
    /// The GIF `destination`'s encoding pass: `frame` of its `frames` spooled frames sent.
    case encodingGIF(destination: String, frame: Int, frames: Int)
    /// gifsicle `-O3` on the finished GIF `destination`.
    case optimizingGIF(destination: String)
    /// `--max-size`: `destination` encoded again at `setting`, its `encoding`-th encoding.
    case fitting(destination: String, encoding: Int, setting: String)

    /// The step's name in JSON (`flick render --progress json`, the studio's events):
    /// `encode-gif`, `gifsicle` or `max-size`.
    public var kind: String {
      switch self {
      case .encodingGIF: "encode-gif"
      case .optimizingGIF: "gifsicle"
      case .fitting: "max-size"
      }
    }

    /// The step without how far it is (`kind` and `destination`): printers show a new phase at
    /// once and the progress within one at their own rate.
    package var phase: String { kind + " " + destination }

    /// The output the step works on.
    public var destination: String {
      switch self {
      case .encodingGIF(let destination, _, _), .optimizingGIF(let destination), .fitting(let destination, _, _):
        destination
      }
    }
  }

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
    /// Frames per second of the file written: the schedule's, or the lower rate `--max-size`
    /// chose for a GIF (0 for an output without a rate of its own).
    package var fps = 0
    /// Playing time in seconds.
    public var duration: Double
    /// Images stored when a GIF or APNG merged runs of identical frames (fewer than
    /// ``frames``); nil when every frame is its own image.
    public var images: Int? = nil
    /// Why a GIF or APNG with identical frames kept them all, when it did (nil otherwise).
    public var unmergedReason: String? = nil
    /// What `--max-size` chose for this output (``OutputBudget``), nil without a budget.
    package var budgetNote: String? = nil
    /// What gifsicle did to a GIF (nil when it did not run).
    package var optimized: GIFOptimizer.Outcome? = nil
    /// Why gifsicle did not optimise this GIF, kept without its pass (nil when it did not fail).
    package var gifsicleFailure: GIFOptimizer.Failure? = nil
  }

  /// The outputs, in the order they were requested.
  public var outputs: [Output]
  /// Frames in the render (its range of frame numbers).
  public var frames: Int
  /// Frames drawn: those some output needs (fewer than ``frames`` when the only outputs are GIFs
  /// resampled by Flick, which need only the frames they keep).
  public var rendered: Int
  /// Pixel size of the frames.
  public var width: Int
  public var height: Int
}
