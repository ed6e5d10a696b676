import FlickMotion
import FlickRaster
import FlickScene
import Foundation

/// About how much memory a render needs at its peak, by allocation class, from the scene alone
/// (before anything is drawn), so ``RenderSession/validate()`` can refuse a render that cannot
/// fit under ``RenderLimits/maximumMemory`` or run it with fewer workers.
///
/// Each class errs on the generous side (sizes are the layers' written bounds clipped to the
/// frame; animations that grow a layer are not followed). Tests compare each class with the
/// peak resident size measured on small renders (`MemoryEstimateTests`).
package struct MemoryEstimate: Sendable, Equatable {
  /// An allocation class, named as messages name it.
  package enum Part: String, CaseIterable, Sendable {
    case frames = "frame buffers"
    case motionBlur = "motion-blur samples"
    case scratch = "shadow, backdrop, mask, group and gradient surfaces"
    case staticPrefix = "kept static pixels"
    case images = "decoded images"
    case lottie = "Lottie canvases"
    case encoders = "ffmpeg, its pipes and the GIF spool"
    case program = "the program itself"
  }

  /// The bytes a layer's own content needs per worker beyond what ``MemoryEstimate`` counts
  /// for every layer, by class: the hook for contents whose memory depends on their files
  /// (Lottie canvases and rlottie's buffers, SVG pictures). `scale` is pixels per point,
  /// `frameBytes` the bytes of one output frame (an upper bound for anything clipped to it).
  package typealias ContentBytes = @Sendable (_ layer: Layer, _ scale: Double, _ frameBytes: Int) -> [Part: Int]

  /// Bytes by class, for the whole process (every worker and the encoders).
  package private(set) var bytes: [Part: Int]

  /// The sum of every class, in bytes.
  package var total: Int { bytes.values.reduce(0) { Self.add($0, $1) } }

  /// The class that needs the most.
  package var dominant: Part {
    Part.allCases.max { (bytes[$0] ?? 0) < (bytes[$1] ?? 0) } ?? .frames
  }

  /// The program's own memory besides pixels: code, fonts, Swift and Cairo's heaps (64 MiB).
  package static let programBytes = 64 << 20

  /// The estimate of rendering `scene` at `width × height` pixels (`scale` pixels per point)
  /// with `jobs` workers, at most `framesInFlight` frames in flight, into `outputs` (H.264 with
  /// the x264 `preset`).
  ///
  /// - Parameter content: Per-layer content bytes (``defaultContentBytes`` by default).
  package init(
    scene: Scene, width: Int, height: Int, scale: Double, jobs: Int, framesInFlight: Int,
    outputs: [OutputFormat], preset: String = "veryfast",
    content: @escaping ContentBytes = MemoryEstimate.defaultContentBytes
  ) {
    let frameBytes = Self.mul(Self.mul(max(0, width), max(0, height)), 4)
    let jobs = max(1, jobs)
    var perWorker: [Part: Int] = [:]
    var shared: [Part: Int] = [:]
    // Pooled frames (two per frame in flight, plus two; one per worker, plus two, when only
    // yuv420p planes are read), YUV planes for an H.264 output (one per frame in flight, plus
    // two), and each worker's drawing surface.
    let yuv = Self.planeBytes(width: width, height: height, outputs: outputs)
    shared[.frames] =
      Self.holdsPlanesAlone(width: width, height: height, outputs: outputs)
      ? Self.add(Self.mul(frameBytes, jobs + 2), Self.mul(yuv, framesInFlight + 2))
      : Self.add(
        Self.mul(Self.bytesPerFrameInFlight(width: width, height: height, outputs: outputs), framesInFlight + 1), yuv)
    perWorker[.frames] = frameBytes
    // Motion blur: every sample of a frame is drawn whole, then averaged into one more frame.
    if let blur = scene.motionBlur { perWorker[.motionBlur] = Self.mul(frameBytes, blur.samples + 1) }
    // The kept pixels, and the buffer kept before them (written into at the next keep).
    perWorker[.staticPrefix] = Self.mul(frameBytes, 2)
    var walk = LayerWalk(scale: scale, frameBytes: frameBytes, content: content)
    for layer in scene.layers { walk.visit(layer) }
    for (part, value) in walk.perWorker { perWorker[part] = Self.add(perWorker[part] ?? 0, value) }
    // Decoded pictures are shared by the workers; the largest is decoded twice at once (its
    // file's pixels and the copy kept).
    let images = walk.images.map(Renderer.decodedImageBytes(path:))
    shared[.images] = Self.add(images.reduce(0, Self.add), images.max() ?? 0)
    shared[.encoders] = outputs.reduce(0) {
      Self.add($0, Self.encoderBytes($1, width: width, height: height, preset: preset))
    }
    shared[.program] = Self.programBytes
    var bytes: [Part: Int] = [:]
    for part in Part.allCases {
      bytes[part] = Self.add(Self.mul(perWorker[part] ?? 0, jobs), shared[part] ?? 0)
    }
    self.bytes = bytes
  }

  /// The default ``ContentBytes``: a Lottie layer's rlottie memory at its drawn size
  /// (``FlickRaster/Renderer/lottieBytes(path:drawnPixels:)``), and an SVG picture's surface at
  /// the layer's size and the images embedded in it
  /// (``FlickRaster/Renderer/svgEmbeddedImageBytes(path:)``).
  package static let defaultContentBytes: ContentBytes = { layer, scale, frameBytes in
    var parts: [Part: Int] = [:]
    let area = LayerWalk.area(layer.bounds.size, scale: scale, limit: frameBytes)
    if case .lottie(let lottie) = layer.content {
      // rlottie's surfaces, the coverage of every item it draws, and its decoded images (counted
      // for each worker: an upper bound), from the file itself; twice the area if unreadable.
      parts[.lottie] = Renderer.lottieBytes(path: lottie.path, drawnPixels: area / 4) ?? mul(area, 2)
    }
    if let picture = layer.contents, picture.path.lowercased().hasSuffix(".svg") {
      parts[.scratch] = area
      // librsvg decodes the images embedded in the picture into each worker's own document.
      let images = Renderer.svgEmbeddedImageBytes(path: picture.path)
      if images > 0 { parts[.images] = images }
    }
    return parts
  }

  /// The pooled memory one more frame in flight takes, in bytes: its pixels and their
  /// straight-alpha copy (`width × height × 4` each) and, for an H.264 output, its YUV planes
  /// (`width × height × 3 / 2`); the planes alone when nothing else is read
  /// (``holdsPlanesAlone(width:height:outputs:)``).
  package static func bytesPerFrameInFlight(width: Int, height: Int, outputs: [OutputFormat]) -> Int {
    let planes = planeBytes(width: width, height: height, outputs: outputs)
    if holdsPlanesAlone(width: width, height: height, outputs: outputs) { return planes }
    return add(mul(mul(max(0, width), max(0, height)), 8), planes)
  }

  /// The yuv420p planes of one frame when an output is H.264 (`width × height × 3 / 2` bytes), else 0.
  private static func planeBytes(width: Int, height: Int, outputs: [OutputFormat]) -> Int {
    outputs.contains(.mp4) ? mul(mul(max(0, width), max(0, height)), 3) / 2 : 0
  }

  /// Whether a frame in flight keeps only its yuv420p planes: every output is an MP4 that reads
  /// them (sides ``YUV420Converter/accepts(width:height:)`` takes), so the workers give the
  /// pixels back once converted.
  package static func holdsPlanesAlone(width: Int, height: Int, outputs: [OutputFormat]) -> Bool {
    !outputs.isEmpty && outputs.allSatisfy { $0 == .mp4 } && YUV420Converter.accepts(width: width, height: height)
  }

  /// What ffmpeg needs for one output of `width × height` frames: its process (64 MiB), its
  /// pipe, and the frames its encoder holds. x264 holds about three times a YUV frame for each
  /// frame of lookahead, reference, B-frame and thread of its `preset` (a 1080p `veryfast`
  /// encode of noise peaks near 300 MB, `veryslow` needs three times that); VP9 keeps 25 frames
  /// of lag with alpha; the others a few frames.
  package static func encoderBytes(_ format: OutputFormat, width: Int, height: Int, preset: String = "veryfast") -> Int
  {
    let frame = mul(mul(width, height), 4)
    let base = (64 << 20) + (1 << 20)
    switch format {
    case .png, .bgra: return 0
    case .mp4:
      let yuv = mul(width, height) * 3 / 2
      return add(base, mul(mul(yuv, 3), x264Frames(preset: preset) + 2 * FFmpegCommand.x264Threads + 8))
    case .webm: return add(base, mul(frame, 16))
    case .gif, .mov, .apng, .webp: return add(base, mul(frame, 4))
    }
  }

  /// x264's lookahead + reference + B-frames of `preset` (its preset table), `veryslow`'s for
  /// a name it does not know.
  static func x264Frames(preset: String) -> Int {
    let frames = [
      "ultrafast": 1, "superfast": 4, "veryfast": 14, "faster": 25, "fast": 35, "medium": 46, "slow": 58,
      "slower": 76, "veryslow": 84, "placebo": 92,
    ]
    return frames[preset] ?? 92
  }

  /// The message part naming the estimate, for errors: "about 2.2 GiB (most of it motion-blur samples: 2.0 GiB)".
  package var summary: String {
    "about \(RenderLimits.format(bytes: total)) (most of it \(dominant.rawValue): "
      + "\(RenderLimits.format(bytes: bytes[dominant] ?? 0)))"
  }

  static let ceiling = 1 << 60
  static func add(_ a: Int, _ b: Int) -> Int { min(ceiling, a + b) }
  static func mul(_ a: Int, _ b: Int) -> Int {
    let (p, overflow) = a.multipliedReportingOverflow(by: b)
    return overflow ? ceiling : min(ceiling, p)
  }
}

/// The walk of a scene's layers that adds up the surfaces each worker may hold.
private struct LayerWalk {
  let scale: Double
  let frameBytes: Int
  let content: MemoryEstimate.ContentBytes
  var perWorker: [MemoryEstimate.Part: Int] = [:]
  var images: Set<String> = []

  init(scale: Double, frameBytes: Int, content: @escaping MemoryEstimate.ContentBytes) {
    self.scale = scale
    self.frameBytes = frameBytes
    self.content = content
  }

  /// The bytes of a `size` (points) surface at `scale`, with a pixel of margin, at most `limit`.
  static func area(_ size: Size, scale: Double, limit: Int) -> Int {
    func side(_ v: Double) -> Int {
      let pixels = (v.isFinite ? max(0, v) : 0) * scale
      return pixels > 1e9 ? 1_000_000_000 : Int(pixels.rounded(.up)) + 2
    }
    return min(limit, MemoryEstimate.mul(MemoryEstimate.mul(side(size.width), side(size.height)), 4))
  }

  mutating func visit(_ layer: Layer) {
    let size = layer.bounds.size
    var scratch = 0
    if layer.shadowOpacity > 0 {
      // The shadow's mask and its blur's scratch, over the bounds grown by the blur.
      let pad = 3 * max(0, layer.shadowRadius) + abs(layer.shadowOffset.x) + abs(layer.shadowOffset.y)
      let grown = Size(width: size.width + 2 * pad, height: size.height + 2 * pad)
      scratch = MemoryEstimate.add(scratch, MemoryEstimate.mul(Self.area(grown, scale: scale, limit: frameBytes), 2))
    }
    if layer.backdrop != nil { scratch = MemoryEstimate.add(scratch, MemoryEstimate.mul(frameBytes, 2)) }
    // A group (a mask, group opacity, a colour multiplier) draws its subtree into a surface of
    // the subtree's extent first; a mask adds one for itself.
    let groups =
      (layer.mask != nil ? 2 : 0) + (layer.opacity < 1 && !layer.sublayers.isEmpty ? 1 : 0)
      + (layer.colorMultiplier != .white ? 1 : 0)
    if groups > 0 { scratch = MemoryEstimate.add(scratch, MemoryEstimate.mul(groupArea(layer), groups)) }
    if case .gradient = layer.content {
      scratch = MemoryEstimate.add(scratch, Self.area(size, scale: scale, limit: frameBytes))
    }
    if let picture = layer.contents, !picture.path.lowercased().hasSuffix(".svg") { images.insert(picture.path) }
    perWorker[.scratch] = MemoryEstimate.add(perWorker[.scratch] ?? 0, scratch)
    for (part, value) in content(layer, scale, frameBytes) {
      perWorker[part] = MemoryEstimate.add(perWorker[part] ?? 0, value)
    }
    if let mask = layer.mask { visit(mask) }
    for sublayer in layer.sublayers { visit(sublayer) }
  }

  /// The bytes of a surface over `layer`'s bounds and its sublayers' frames, at most a frame.
  private func groupArea(_ layer: Layer) -> Int {
    var minX = 0.0
    var minY = 0.0
    var maxX = layer.bounds.width
    var maxY = layer.bounds.height
    for s in layer.sublayers {
      let f = s.frame
      minX = min(minX, f.minX)
      minY = min(minY, f.minY)
      maxX = max(maxX, f.maxX)
      maxY = max(maxY, f.maxY)
    }
    return Self.area(Size(width: maxX - minX, height: maxY - minY), scale: scale, limit: frameBytes)
  }
}
