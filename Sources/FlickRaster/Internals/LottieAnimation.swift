import FlickMotion
internal import CRLottie
import FlickScene
import Foundation

/// One rlottie animation object (`Lottie_Animation`), loaded from a Lottie file.
///
/// rlottie renders premultiplied ARGB32 in native byte order (`ARGB32_Premultiplied`), which is
/// exactly Cairo's `CAIRO_FORMAT_ARGB32`, so its pixels are used as they are. An object is not
/// safe to use from two threads at once; ``LottieStore`` hands each one to a single user at a
/// time.
final class LottieAnimation {
  private let handle: OpaquePointer
  /// The composition's size in points (`w`, `h`).
  let width: Int
  let height: Int
  /// rlottie's frame count (`op − ip`) and rate (`fr`).
  let frameCount: Int
  let frameRate: Double

  /// A resource folder that resolves nothing: rlottie is never told where the file is, so no
  /// path written in it can reach the filesystem (``LottieFile/checked(_:path:maximumPixels:)``
  /// also leaves no image asset that rlottie would load from a folder).
  static let noResourceFolder = "/nonexistent/flick-lottie-loads-no-files/"

  /// Loads `data`, the checked JSON of ``LottieFile/loadChecked(path:maximumPixels:)`` (never a
  /// file's own bytes); `path` names the file in errors.
  init(data: Data, path: String) throws(RasterError) {
    var failure: UnsafePointer<CChar>?
    guard flick_rlottie_load(&failure) != 0 else {
      let reason = failure.map { String(cString: $0) } ?? "unknown"
      throw .unreadableLottie(
        path: path, reason: "Lottie files need rlottie, which cannot be loaded: \(escaped: reason)")
    }
    // rlottie keeps parsed models in a process-wide cache by key, so the key must identify the
    // content: equal keys share one model (any other key would hand out another file's model).
    let key = "flick:\(data.count):\(Self.fingerprint(data))"
    let folder = Self.noResourceFolder
    var bytes = [CChar](repeating: 0, count: data.count + 1)
    data.withUnsafeBytes { raw in
      bytes.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[...])) }
    }
    guard let h = flick_lottie_animation_from_data(bytes, key, folder) else {
      throw .unreadableLottie(path: path, reason: "rlottie cannot load it (malformed or unsupported Lottie JSON)")
    }
    var w = 0
    var hgt = 0
    flick_lottie_animation_get_size(h, &w, &hgt)
    let frames = flick_lottie_animation_get_totalframe(h)
    guard w > 0, hgt > 0, w <= 16384, hgt <= 16384, frames > 0 else {
      flick_lottie_animation_destroy(h)
      throw .unreadableLottie(path: path, reason: "rlottie reads a \(w)×\(quoted: hgt) composition of \(frames) frames")
    }
    self.handle = h
    self.width = w
    self.height = hgt
    self.frameCount = frames
    self.frameRate = flick_lottie_animation_get_framerate(h)
  }

  deinit { flick_lottie_animation_destroy(handle) }

  /// Draws frame `index` (`0..<frameCount`, from the in point) over `pixels`, scaled to
  /// `width × height` (rlottie keeps the aspect ratio, centring the composition).
  func render(frame index: Int, into pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int) {
    let frame = min(max(0, index), frameCount - 1)
    flick_lottie_animation_render(
      handle, frame, pixels.assumingMemoryBound(to: UInt32.self), width, height, stride)
  }

  /// FNV-1a over the bytes, as 16 hex digits.
  private static func fingerprint(_ data: Data) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in data {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01b3
    }
    return String(hash, radix: 16)
  }
}

/// The loaded Lottie animations of this process, by path: the file is read and inspected once,
/// and each worker borrows its own rlottie object (made on first use, then reused), so the
/// parse happens once per worker and no object is drawn from two threads at once.
enum LottieStore {
  private static let pool = ResourcePool<(Data, LottieFile), LottieAnimation>(
    read: read, make: { file, path throws(RasterError) in try LottieAnimation(data: file.0, path: path) })

  /// Reads, inspects and trial-loads the file at `path` (cached), so a render can fail before
  /// it starts.
  ///
  /// - Throws: ``RasterError/unreadableLottie(path:reason:)`` when the file cannot be read, is
  ///   not Lottie, uses features rlottie does not draw, or rlottie cannot load it.
  static func check(_ path: String) throws(RasterError) {
    try withAnimation(path) { _ in }
  }

  /// Runs `body` with an animation object for `path` that nobody else uses meanwhile.
  static func withAnimation<T>(_ path: String, _ body: (LottieAnimation) throws(RasterError) -> T) throws(RasterError)
    -> T
  {
    try pool.withResource(path, body)
  }

  /// The checked file at `path` (read once per process), or nil when it cannot be read.
  static func file(_ path: String) -> LottieFile? {
    try? pool.file(path).get().1
  }

  /// The pixel cap of images and canvas when the store reads a file itself: the decoder's
  /// ceiling (a template or the command line has already checked it against `--max-pixels`).
  static let maximumPixels = DecodedImage.maximumPixels

  /// Reads and checks the file, keeping the JSON rlottie is to be given (never the file's bytes).
  @Sendable private static func read(_ path: String) -> Result<(Data, LottieFile), RasterError> {
    if let refusal = FileResolution.refusal(path) { return .failure(.unreadableLottie(path: path, reason: refusal)) }
    do {
      let (file, json) = try LottieFile.loadChecked(path: path, maximumPixels: maximumPixels)
      try file.requireSupported()
      return .success((json, file))
    } catch {
      let located = error.line.map { "\(path):\($0):\(error.column ?? 0)" } ?? path
      return .failure(.unreadableLottie(path: located, reason: error.message))
    }
  }
}
