import FlickMotion
import Foundation

/// Caps on what one render may cost, so a template from someone else cannot start a 36-day render
/// or exhaust the machine's memory.
///
/// ``RenderSession/validate()`` estimates before the first frame and refuses with
/// ``VideoError/overLimit(_:)`` (exit 2): pixels per frame, frames, and the memory the frames in
/// flight need (``MemoryEstimate``), and the work (frames × pixels × blur samples). While
/// rendering, the process's resident memory is watched
/// (``VideoError/limitReached(_:)``, exit 3) and every ffmpeg must keep making progress
/// (``VideoError/encoderStalled(output:seconds:)``, exit 3). The defaults are above any
/// legitimate preview (8K UHD frames, an hour at 60 fps) and below what breaks a build machine;
/// `flick` takes `--max-pixels`, `--max-frames`, `--max-memory`, `--max-work`, `--encoder-timeout` and
/// `--frame-timeout` and the
/// `FLICK_MAX_…` environment variables (docs/security.md).
package struct RenderLimits: Sendable, Equatable {
  /// The most pixels one output frame may have (default 67,108,864 = 8192 × 8192).
  package var maximumPixels: Int
  /// The most frames one render may have (default 216,000: an hour at 60 fps).
  package var maximumFrames: Int
  /// The most memory the render may use, in bytes: the estimate must fit under it less the
  /// memory watch's margin before rendering (``memoryBudget(frameBytes:)``) and the resident size
  /// must stay under it while rendering (default 8 GiB).
  package var maximumMemory: Int
  /// How long an ffmpeg may go without reading a byte or using any CPU before it is stopped, in
  /// seconds (default 120).
  package var encoderTimeout: Double
  /// How long one frame may take to draw before the command stops, in seconds (default 120; a
  /// frame of a bundled template takes well under a second). Watched by
  /// ``FlickRaster/DrawingWatch``, which the commands start.
  package var frameTimeout: Double
  /// The most pixels one render may draw: frames × pixels per frame × motion-blur samples
  /// (default 10¹², four times a 4K minute at 30 fps with 16 blur samples, about an hour of
  /// drawing; a render of days is refused before it starts).
  package var maximumWork: Int

  package init(
    maximumPixels: Int = 8192 * 8192, maximumFrames: Int = 216_000, maximumMemory: Int = 8 << 30,
    encoderTimeout: Double = 120, maximumWork: Int = 1_000_000_000_000, frameTimeout: Double = 120
  ) {
    self.maximumPixels = maximumPixels
    self.maximumFrames = maximumFrames
    self.maximumMemory = maximumMemory
    self.encoderTimeout = encoderTimeout
    self.maximumWork = maximumWork
    self.frameTimeout = frameTimeout
  }

  /// Checks a render of `frames` frames of `width × height` pixels, each drawn `samples` times
  /// (motion blur; 1 without), against the pixel, frame and work caps: what is known before
  /// anything is loaded or started (``RenderSession/validate()``, `flick plan` for each job, and
  /// the commands that draw the frames a list names: `snapshot`, `verify`, `accept --renderer`).
  ///
  /// - Parameters:
  ///   - part: How the command draws fewer frames, said after how to raise the cap (nil when it
  ///     has no way).
  ///   - smaller: How it draws smaller frames, said with the work cap (nil when it has no way).
  /// - Throws: ``VideoError/overLimit(_:)`` naming the cap and how to raise it.
  package func check(
    frames: Int, width: Int, height: Int, samples: Int, part: String? = "--frames renders part",
    smaller: String? = "--scale draws smaller"
  ) throws(VideoError) {
    guard width * height <= maximumPixels else {
      throw .overLimit(
        "a \(width)×\(height) frame has \(width * height) pixels, more than the cap of \(maximumPixels) "
          + "(--max-pixels or FLICK_MAX_PIXELS raises it)")
    }
    guard frames <= maximumFrames else {
      throw .overLimit(
        "the render has \(frames) frames, more than the cap of \(maximumFrames) "
          + "(--max-frames or FLICK_MAX_FRAMES raises it\(escaped: part.map { "; " + $0 } ?? ""))")
    }
    let work = MemoryEstimate.mul(MemoryEstimate.mul(frames, width * height), samples)
    guard work <= maximumWork else {
      let fewer = [part, smaller].compactMap { $0 }
      throw .overLimit(
        "the render draws \(frames) frames × \(width * height) pixels"
          + (samples > 1 ? " × \(samples) motion-blur samples" : "")
          + " = \(quoted: work) pixels, more than the work cap of "
          + "\(maximumWork) (--max-work or FLICK_MAX_WORK raises it"
          + "\(escaped: fewer.isEmpty ? "" : "; " + fewer.joined(separator: ", ")))")
    }
  }

  /// The memory a render with frames of `frameBytes` bytes may be estimated to need under
  /// ``maximumMemory``, in bytes: the cap less the memory watch's margin
  /// (``MemoryWatch/budget(cap:frameBytes:)``), the one rule every up-front check uses.
  package func memoryBudget(frameBytes: Int) -> Int {
    MemoryWatch.budget(cap: maximumMemory, frameBytes: frameBytes)
  }

  /// The largest frame ffmpeg accepts in `format`, or nil when any size the checks above allow
  /// is fine. ffmpeg refuses a raw frame when `(width + 128) × (height + 128) × 8 ≥ 2³¹`
  /// (`av_image_check_size`, so 16384 × 16384 fails while 16384 × 16128 passes), and libwebp
  /// allows at most 16383 on each side.
  package static func encoderRefuses(_ format: OutputFormat, width: Int, height: Int) -> String? {
    guard format.usesFFmpeg else { return nil }
    if (width + 128) * (height + 128) * 8 >= Int(Int32.max) {
      return
        "ffmpeg refuses frames with (width + 128) × (height + 128) ≥ 268,435,456 (16384 × 16128 is the largest 16384-wide frame)"
    }
    if format == .webp, width > 16383 || height > 16383 {
      return "WebP allows at most 16383 pixels on each side"
    }
    return nil
  }

  /// `bytes` for a message: "1.5 GiB", "300 MiB" (``FlickMotion/ByteText``).
  package static func format(bytes: Int) -> String { ByteText.format(bytes) }

  /// `seconds` for a message: "90 s", "0.5 s".
  package static func format(seconds: Double) -> String {
    seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.1f s", seconds)
  }
}
