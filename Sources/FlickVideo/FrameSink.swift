import FlickRaster

/// Where rendered frames go: an encoder, a PNG sequence, or nowhere.
///
/// A render drives every sink the same way, on one thread: ``write(_:)`` for each frame in
/// order, then ``finish()`` on all sinks (phase one: everything is complete in temporary
/// files), then ``commit()`` on all (phase two: each output put in place, see
/// ``FlickMotion/AtomicDestination``). Any failure calls ``abort()`` on every sink that has not
/// committed, which removes its temporary files and leaves the destination as it was.
///
/// A sink gets the frames its output keeps (``FrameSchedule/Delivery``): every frame of the
/// render, or for a GIF below the render's rate the frames it shows, at its own rate.
package protocol FrameSink: AnyObject {
  /// The destination, for messages and the summary.
  var destination: String { get }
  /// Whether frames should be un-premultiplied (straight alpha) before ``write(_:)``.
  var wantsStraightAlpha: Bool { get }
  /// Whether the sink reads the frame's `yuv420p` planes (``PreparedFrame/yuv420``), which the
  /// raster workers then make. Default: no.
  var wantsYUV420: Bool { get }
  /// Whether the sink reads the frame's BGRA bytes (premultiplied or straight). A sink that reads
  /// only its ``PreparedFrame/yuv420`` planes says no, so a frame whose every sink does the same
  /// lets go of its pixels as soon as it is converted (default: yes).
  var readsPixels: Bool { get }
  /// Work to do on the raster workers for each frame, concurrently and in any order, before
  /// the frame reaches ``write(_:)`` (nil when the sink has none). It must only touch state
  /// that is safe to share.
  var workerStep: (@Sendable (PreparedFrame) throws -> Void)? { get }
  /// What the sink wrote, for the summary (its size once committed, merged images).
  var report: SinkReport { get }
  /// Consumes the next frame.
  func write(_ frame: PreparedFrame) throws
  /// Completes the output into temporary storage (waits for the encoder).
  func finish() throws
  /// ``finish()``, telling `step` what it is doing when that takes a while (a GIF's encoding
  /// pass, gifsicle, a `--max-size` search), on the calling thread. Default: ``finish()``.
  func finish(reporting step: (RenderProgress.Step) -> Void) throws
  /// Flushes the finished output's temporary file to disk, before any output of the render is
  /// put in place: a full disk or a quota, which a delayed write reports only at the flush, then
  /// fails the render while every destination is as it was. Default: nothing to flush.
  func flushForCommit() throws
  /// Moves the finished output into place.
  func commit() throws
  /// Stops and removes everything temporary; idempotent, never throws.
  func abort()
}

extension FrameSink {
  package var wantsYUV420: Bool { false }
  package var readsPixels: Bool { true }
  package func flushForCommit() throws {}
  package func finish(reporting step: (RenderProgress.Step) -> Void) throws { try finish() }
}

/// A rendered frame with the pixel layouts the sinks asked for, made on the raster worker so
/// the in-order delivery thread does no pixel work.
package struct PreparedFrame: Sendable {
  /// The frame number within the scene.
  package var index: Int
  /// The frame as rendered: premultiplied BGRA.
  package var frame: Frame
  /// Packed (`width × 4` bytes a row) premultiplied BGRA, as ffmpeg's `bgra` expects.
  package var premultiplied: [UInt8]
  /// Packed straight-alpha BGRA, when some sink wants it (the premultiplied buffer itself when
  /// every pixel is opaque).
  package var straight: [UInt8]?
  /// The frame as `yuv420p` planes (BT.709, limited range: ``YUV420Converter``), when some sink
  /// wants them.
  package var yuv420: [UInt8]?
  /// Whether this frame's tree draws the same as the previous delivered frame's, so its pixels
  /// are that frame's (``RenderPipeline/reusesUnchangedFrames``): GIF and APNG outputs merge
  /// such frames into the one before. Decided from the trees, never from pixels.
  package var repeatsPrevious = false

  /// Prepares `frame` (number `index`) in the `layouts` the sinks read, adding the straight-alpha
  /// copy when they read ``FrameLayouts/straightAlpha``; that copy goes into a buffer from `pool`
  /// when it has one of the right size. When no sink reads premultiplied bytes
  /// (``FrameLayouts/keepsPremultiplied`` false, say a WebM alone), the frame's own buffer is
  /// converted in place instead: no copy, and one frame buffer less in flight; ``premultiplied``
  /// and ``frame``'s pixels are then empty. With a `converter`, the frame is also converted to
  /// ``yuv420`` (into a buffer from `yuvPool` when it has one); when nothing reads its pixels but
  /// the planes (``FrameLayouts/keepsPixels`` false), they then go back to `pool` at once (or are
  /// dropped, when a worker draws over them in place and `pool` is nil) and the frame keeps its
  /// planes alone (``premultiplied`` and ``frame``'s pixels empty).
  package init(
    index: Int, frame: consuming Frame, layouts: FrameLayouts, pool: FramePool? = nil,
    converter: YUV420Converter? = nil, yuvPool: FramePool? = nil
  ) {
    self.index = index
    self.yuv420 = converter.map { Self.convert(frame.packedPixels, with: $0, pool: yuvPool) }
    let straightAlpha = layouts.straightAlpha
    if yuv420 != nil && !layouts.keepsPixels && !straightAlpha {
      let pixels = frame.pixels
      // Drop the frame's reference, so the pool holds the only one and the next frame drawn into
      // the buffer does not copy it.
      frame.pixels = []
      pool?.recycle(consume pixels)
      self.frame = frame
      self.premultiplied = []
      self.straight = nil
      return
    }
    if straightAlpha && !layouts.keepsPremultiplied {
      var pixels = frame.packedPixels
      // Drop the frame's reference, so converting does not copy the buffer.
      frame.pixels = []
      StraightAlpha.convertInPlace(&pixels)
      self.frame = frame
      self.premultiplied = []
      self.straight = pixels
      return
    }
    self.frame = frame
    self.premultiplied = frame.packedPixels
    self.straight = straightAlpha ? StraightAlpha.convert(premultiplied, pool: pool) : nil
  }

  /// Moves this frame's buffers (pixels, packed copy if separate, straight-alpha copy) into
  /// `pool`, and its ``yuv420`` planes into `yuvPool`, leaving the frame empty (a buffer whose
  /// pool is nil is released). Only the last holder of the frame should do this.
  package mutating func recycle(into pool: FramePool?, yuv420 yuvPool: FramePool? = nil) {
    if let yuvPool, let planes = yuv420.take() { yuvPool.recycle(consume planes) }
    func base(_ bytes: [UInt8]) -> UnsafePointer<UInt8>? { bytes.withUnsafeBufferPointer { $0.baseAddress } }
    let separate = base(premultiplied) != base(frame.pixels)
    let pixels = frame.pixels
    let packed = separate ? premultiplied : []
    // An opaque frame's straight copy is the premultiplied buffer itself: given back once.
    let straight = self.straight.map { [base(premultiplied), base(frame.pixels)].contains(base($0)) ? [] : $0 } ?? []
    frame.pixels = []
    premultiplied = []
    self.straight = nil
    // `consume` ends each local's lifetime here, so the pool holds the only reference and a
    // worker taking the buffer at once draws into it without a copy.
    pool?.recycle(consume pixels)
    pool?.recycle(consume packed)
    pool?.recycle(consume straight)
  }

  /// The bytes for a sink that does or does not want straight alpha.
  package func bytes(straight wantsStraight: Bool) -> [UInt8] {
    wantsStraight ? (straight ?? StraightAlpha.convert(premultiplied)) : premultiplied
  }

  /// The ``yuv420`` planes, converted now when the workers did not make them; empty when the
  /// frame cannot be converted (sides not even, or its premultiplied bytes not kept).
  package func yuv420Bytes() -> [UInt8] {
    if let yuv420 { return yuv420 }
    guard YUV420Converter.accepts(width: frame.width, height: frame.height),
      premultiplied.count == frame.width * frame.height * 4
    else { return [] }
    return Self.convert(premultiplied, with: YUV420Converter(width: frame.width, height: frame.height), pool: nil)
  }

  /// `pixels` (packed BGRA) converted by `converter`.
  private static func convert(_ pixels: [UInt8], with converter: YUV420Converter, pool: FramePool?) -> [UInt8] {
    let count = YUV420Converter.frameSize(width: converter.width, height: converter.height)
    var planes = pool?.take(count: count) ?? [UInt8](unsafeUninitializedCapacity: count) { _, n in n = count }
    pixels.withUnsafeBytes { source in planes.withUnsafeMutableBufferPointer { converter.convert(source, into: $0) } }
    return planes
  }
}

/// A sink that drops every frame: measures rendering alone (`flick render --null`).
final class DiscardingSink: FrameSink {
  let destination = "(discarded)"
  let wantsStraightAlpha = false
  let readsPixels = false
  /// Frames received.
  private(set) var frameCount = 0

  var workerStep: (@Sendable (PreparedFrame) throws -> Void)? { nil }

  var report: SinkReport { SinkReport() }

  init() {}
  func write(_ frame: PreparedFrame) throws { frameCount += 1 }
  func finish() throws {}
  func commit() throws {}
  func abort() {}
}

extension FrameSink {
  /// Runs `body`; when it throws, aborts the sink (its temporaries and processes are removed) and
  /// rethrows, so a failed step never leaves a half-written output behind.
  func abortingOnFailure<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    do {
      return try body()
    } catch {
      abort()
      throw error
    }
  }
}
