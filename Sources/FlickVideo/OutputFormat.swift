/// A file format Flick can write, chosen from the output path's extension or `--format`.
public enum OutputFormat: String, Sendable, CaseIterable {
  /// H.264 in MP4, `yuv420p`, BT.709 conversion and colour tags, `+faststart`. Opaque.
  case mp4
  /// Animated GIF: a palette computed from all frames (`palettegen`), then `paletteuse`.
  case gif
  /// VP9 in WebM with alpha (`yuva420p`).
  case webm
  /// Apple ProRes 4444 in QuickTime, with a 16-bit alpha channel (`yuva444p10le`).
  case mov
  /// Animated PNG (RGBA, lossless).
  case apng
  /// Animated WebP with alpha.
  case webp
  /// One PNG file per frame (RGBA, straight alpha), written by Flick itself.
  case png
  /// Raw frames, premultiplied BGRA, `width × 4` bytes a row, concatenated (for other tools
  /// and benchmarks: `ffmpeg -f rawvideo -pix_fmt bgra -s WxH -i file.bgra`).
  case bgra

  /// The format for `path`'s extension (case-insensitive), or nil if Flick does not write it.
  ///
  /// A path ending in `/` or containing a `%d`-style number pattern is a PNG sequence; a plain
  /// `.png` file name is not (one PNG is what `flick still` writes).
  public init?(path: String) {
    if path.hasSuffix("/") || FrameNamePattern(path) != nil {
      self = .png
      return
    }
    guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
    let ext = path[path.index(after: dot)...].lowercased()
    guard let format = OutputFormat(rawValue: ext), format != .png else { return nil }
    self = format
  }

  /// Whether the format keeps an alpha channel (frames are sent un-premultiplied).
  public var hasAlpha: Bool {
    switch self {
    case .mp4, .bgra: return false
    case .gif, .webm, .mov, .apng, .webp, .png: return true
    }
  }

  /// Whether the format is encoded by an ffmpeg subprocess (all but the PNG sequence and raw frames).
  package var usesFFmpeg: Bool { self != .png && self != .bgra }
  /// Whether an ffmpeg reads the frames while they render: every ffmpeg format but GIF, whose
  /// frames are kept in a spool file until its palette is known.
  package var streamsToFFmpeg: Bool { usesFFmpeg && self != .gif }

  /// The ffmpeg encoder the format needs, for the start-up check.
  var ffmpegEncoder: String? {
    switch self {
    case .mp4: return "libx264"
    case .gif: return "gif"
    case .webm: return "libvpx-vp9"
    case .mov: return "prores_ks"
    case .apng: return "apng"
    case .webp: return "libwebp_anim"
    case .png, .bgra: return nil
    }
  }

  /// The ffmpeg demuxer that reads the format back (`-f` before `-i`). A file Flick did not just
  /// write (a chunk or an output from another machine) is read with its format named, never
  /// guessed from its content: a file holding an `ffconcat` list, an HLS playlist or another
  /// container's header would otherwise have ffmpeg read the files it names.
  package var ffmpegDemuxer: String {
    switch self {
    case .mp4: return "mp4"
    case .gif: return "gif"
    case .webm: return "webm"
    case .mov: return "mov"
    case .apng: return "apng"
    case .webp: return "webp_pipe"
    case .png: return "image2"
    case .bgra: return "rawvideo"
    }
  }

  /// `path` as an ffmpeg input or output argument: a `file:` URL, so no file name is taken for
  /// another protocol (`tcp:host:port/x.mp4`, `concat:a|b`).
  package static func ffmpegFile(_ path: String) -> String { "file:" + path }

  /// `path` as an argument no program reads as an option: `./` before a path that begins with
  /// `-` (`-y.mp4` → `./-y.mp4`, the same file), any other path as it is. Every path an
  /// ``FFmpegCommand`` names (output, palette, pass log) goes through it.
  package static func optionSafe(_ path: String) -> String { path.hasPrefix("-") ? "./" + path : path }

  /// What Flick would take a file or folder named `path` for, when its extension (case-insensitive)
  /// is one of Flick's inputs: a template (`.json5`, listed by `flick templates` and the studio),
  /// a Lottie, parameter or plan file (`.json`) or an SVG (`.svg`); nil for any other name. No
  /// output takes such a name (``RenderSession/checkOutputPaths()``): a GIF named `inputs.json5`
  /// would show up as a template, and a template reading it would fail.
  package static func inputKind(named path: String) -> String? {
    var name = Substring(path)
    while name.hasSuffix("/") { name = name.dropLast() }
    let last = name.split(separator: "/").last ?? name
    guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return nil }
    switch last[last.index(after: dot)...].lowercased() {
    case "json5": return "a template"
    case "json": return "a Lottie, parameter or plan file"
    case "svg": return "an SVG"
    default: return nil
    }
  }

  /// The outputs users can ask for, for messages.
  public static var supportedExtensions: String {
    ".mp4, .gif, .webm, .mov, .apng, .webp, .bgra (raw frames), or a PNG sequence (frames/ or frames/%04d.png)"
  }
}
