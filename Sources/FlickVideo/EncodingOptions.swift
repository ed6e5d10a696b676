/// Encoder settings shared by every output of one render; each format uses the ones that
/// apply to it and ignores the rest.
public struct EncodingOptions: Sendable, Equatable {
  /// GIF dithering, passed to ffmpeg's `paletteuse`.
  public enum Dither: String, Sendable, CaseIterable {
    /// Ordered 8×8 Bayer dithering (`bayer_scale=5`): stable from frame to frame, the default.
    case bayer
    /// Error diffusion (Sierra-2-4A): smoother gradients, may shimmer in animation.
    case sierra2_4a
    /// Floyd–Steinberg error diffusion.
    case floydSteinberg = "floyd_steinberg"
    /// Heckbert's simple error diffusion.
    case heckbert
    /// No dithering: flat colours, visible banding in gradients.
    case none
  }

  /// Who computes a GIF's palette.
  public enum GIFPaletteSource: String, Sendable, CaseIterable {
    /// Flick, from the frames as they are rendered: the palette ffmpeg 5.1's
    /// `palettegen=stats_mode=diff` makes, without a second ffmpeg reading every frame (the
    /// default). ffmpeg's own is used anyway when `--gif-fps` or `--gif-width` filters the frames
    /// before the palette.
    case flick
    /// ffmpeg's `palettegen`, in an ffmpeg pass of its own (an ffmpeg whose `palettegen` differs
    /// from 5.1's, 6.0 and later, makes other palettes).
    case ffmpeg
  }

  /// H.264 / VP9 constant rate factor (lower is better and larger); nil picks the format's
  /// default: 18 for H.264 (`1…51`), 30 for VP9 (`0…63`).
  public var crf: Int?
  /// x264 preset (`ultrafast` … `veryslow`); `veryfast` by default, which keeps the encoder
  /// ahead of the rasteriser on small machines.
  public var preset: String
  /// Pad odd frame sides by one pixel (with the background colour) instead of refusing them
  /// for H.264.
  public var pad: Bool
  /// GIF dithering.
  public var dither: Dither
  /// How many times GIF, APNG and WebP animations play; 0 means forever.
  public var plays: Int
  /// GIF frame rate (frames per second, ≤ 50); nil keeps the render's rate (at most 50).
  public var gifFPS: Int?
  /// GIF width in pixels (height follows the aspect ratio); nil keeps the frame width.
  public var gifWidth: Int?
  /// Colour behind the frame used when padding (`0xRRGGBB`).
  public var padColor: UInt32
  /// Whether a GIF or APNG merges each run of identical frames (decided from the render trees)
  /// into one frame with the run's delay (default true; the picture at every time is the same
  /// either way, see `docs/video.md`). False keeps one image per frame.
  public var mergesIdenticalFrames = true
  /// Who computes a GIF's palette (default Flick).
  public var gifPalette = GIFPaletteSource.flick
  /// Colours in a GIF's palette (2…256; below 256 ffmpeg's `palettegen` makes it with
  /// `max_colors`). ``OutputBudget`` lowers it to fit a budget.
  package var gifColors = 256
  /// The size each output must fit under (`--max-size`; ``OutputBudget``), nil for none.
  package var maxSize: OutputBudget?
  /// Whether a finished GIF goes through gifsicle `-O3` when it is installed (``GIFOptimizer``;
  /// the pixels stay the same). Off for tests that compare Flick's GIF with ffmpeg's own.
  package var optimizesGIF = true
  /// Whether a GIF whose gifsicle pass fails fails its output (exit 3, the message naming
  /// gifsicle) rather than being kept unoptimised with a warning (``GIFOptimizer/Failure``). On for
  /// batch jobs: a job's id names the gifsicle its GIFs are optimised with, and its stamp must
  /// not claim bytes that gifsicle did not make.
  package var requiresGIFOptimizer = false
  /// Whether a GIF's `--max-size` search encodes its next setting beside gifsicle's pass
  /// (``GIFLookahead``). Off only for tests that compare the search with and without it.
  package var budgetLooksAhead = true

  public init(
    crf: Int? = nil, preset: String = "veryfast", pad: Bool = false, dither: Dither = .bayer,
    plays: Int = 0, gifFPS: Int? = nil, gifWidth: Int? = nil, padColor: UInt32 = 0
  ) {
    self.crf = crf
    self.preset = preset
    self.pad = pad
    self.dither = dither
    self.plays = plays
    self.gifFPS = gifFPS
    self.gifWidth = gifWidth
    self.padColor = padColor
  }

  /// The x264 presets, fastest first.
  public static let presets = [
    "ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow",
  ]
}
