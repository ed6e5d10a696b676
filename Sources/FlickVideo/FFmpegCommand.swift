import FlickMotion
/// The ffmpeg command line for one output: raw frames on stdin (BGRA, or for an MP4 the
/// `yuv420p` planes Flick converts them to, ``readsYUV420``), one encoded file out.
///
/// Built as an argument array (never a shell string), so paths with spaces or quotes are safe.
///
/// The frames arrive at the output's own rate (``FrameSchedule/Output/fps``): a GIF below the
/// render's rate gets only the frames ffmpeg's `fps` filter would keep, so no command resamples.
///
/// A GIF takes two passes over the frames: the first gathers colour statistics into a palette
/// image, the second (``arguments``) maps every frame to that palette. The first is Flick's own
/// (``computesPalette``: ``GIFPalette``, the palette ffmpeg 5.1's `palettegen` makes, computed
/// from the frames as they are rendered and sent as the second pass's first frame,
/// ``readsPaletteFirst``) unless a filter changes the frames before `palettegen` would see them
/// (`--gif-width`) or the options ask for ffmpeg's; it is then an ffmpeg command of its own
/// (``palettePass``) reading the frames on stdin. ffmpeg's
/// one-pass `split → palettegen → paletteuse` graph has to keep every frame in memory until the
/// palette exists (2.2 GB for ten seconds at 720p); Flick keeps them on disk instead, as
/// differences from frame to frame (``GIFSink``'s spool), and replays them into the second
/// pass, so memory stays independent of the length of the GIF and every frame is rasterised
/// once.
package struct FFmpegCommand: Sendable, Equatable {
  /// The arguments after the executable name (for a GIF, the second pass).
  package var arguments: [String]
  /// A GIF's first pass when ffmpeg makes the palette: frames in, the palette image
  /// (``palettePath``, PNG) out; nil otherwise.
  package var palettePass: [String]?
  /// Where a GIF's palette image is written between the passes: PNG from ``palettePass``, or
  /// a 16 × 16 PAM image written by Flick (``computesPalette``) when the frames are too small to
  /// carry it (``readsPaletteFirst``). The encoding pass reads it with a `movie` source in its
  /// filter graph.
  package var palettePath: String?
  /// Whether a GIF's encoding pass reads Flick's palette as its first input frame
  /// (``GIFPalette/frame(_:width:height:)``: the 16 × 16 image in the top-left corner of a frame
  /// of the GIF's size), which its graph crops out and hands to `paletteuse` before the GIF's own
  /// frames. It needs no file, so the encoding ffmpeg can start with the render and its start-up
  /// runs beside the raster pass; frames of 16 × 16 pixels or more.
  package var readsPaletteFirst = false
  /// Whether a GIF's palette is Flick's to compute (``GIFPalette``) and hand to the encoding pass
  /// (first on its input, ``readsPaletteFirst``, or at ``palettePath``): `palettegen` would see
  /// the frames as rendered (no `fps` or `scale` filter before it) and the options did not ask
  /// for ffmpeg's.
  package var computesPalette: Bool { readsPaletteFirst || (palettePath != nil && palettePass == nil) }
  /// Whether ffmpeg reads `yuv420p` frames that Flick converted (``YUV420Converter``, the bytes
  /// ffmpeg's own `scale` step would make) instead of BGRA: an MP4 with even sides. The
  /// conversion then runs on the raster workers, in parallel, and the pipe carries 1.5 bytes a
  /// pixel instead of 4; an MP4 padded to even sides (`--pad`) is still converted by ffmpeg.
  package var readsYUV420 = false

  /// The number of x264 encoder threads, the same on every machine, so an MP4's bytes depend
  /// only on the job, not on the CPUs the encoder sees (`docs/video.md`, "Same bytes on every
  /// machine", has the speed it costs).
  package static let x264Threads = 4

  /// The number of libvpx (VP9) encoder threads, fixed for the same reason as ``x264Threads``.
  package static let vp9Threads = 4

  /// The size of an MP4's pictures for frames of `width × height`: H.264 in yuv420p has even
  /// sides, so an odd side is padded by one pixel (`--pad`; without it an odd side is refused).
  package static func mp4Size(width: Int, height: Int) -> (width: Int, height: Int) {
    (width + width % 2, height + height % 2)
  }

  /// Why an MP4 of `width × height` (a side odd) is refused without `--pad`, and what to give
  /// instead: the even size of ``OutputSize/evenSize(from:canvas:)`` for `canvas` (the frames'
  /// canvas; without it no size is suggested), which `--size` (a manifest's `sizes`) accepts, or
  /// `--pad` (`encoding.pad`), named in `spelling`.
  package static func oddSizeAdvice(
    width: Int, height: Int, canvas: Size?, spelling: EncoderRefusal.Spelling = .commandLine
  ) -> String {
    let padded = mp4Size(width: width, height: height)
    let pad =
      spelling == .commandLine
      ? "add --pad to pad to \(padded.width)x\(padded.height)"
      : "set encoding.pad: true to pad to \(padded.width)x\(padded.height)"
    guard let canvas else { return "H.264 in yuv420p needs even sides; \(escaped: pad)" }
    guard let even = OutputSize.evenSize(from: width, canvas: canvas) else {
      return
        "H.264 in yuv420p needs even sides, and no even \(escaped: spelling == .commandLine ? "--size" : "size") up to 16384 "
        + "pixels a side keeps the canvas's aspect ratio; \(escaped: pad)"
    }
    let size =
      spelling == .commandLine
      ? "render at --size \(even.width)x\(even.height)" : "use the size \"\(even.width)x\(even.height)\""
    return "H.264 in yuv420p needs even sides; \(escaped: size) (the smallest even "
      + "size from this width that keeps the canvas's aspect ratio) or \(escaped: pad)"
  }

  /// The `-max_pixels` that lets ffmpeg decode frames of `width × height` and nothing much
  /// larger: its decoders count the width rounded up to their buffers' 64-byte alignment, and a
  /// coded height may be a whole number of 32-line macroblock pairs.
  package static func decoderPixels(width: Int, height: Int) -> Int {
    (width + 63) / 64 * 64 * ((height + 31) / 32 * 32)
  }

  /// ffmpeg's RGB → Y'CbCr step: the BT.709 matrix, limited range, and accurate rounding so a
  /// flat colour decodes back to itself. ``YUV420Converter`` computes the same bytes for
  /// `yuv420p`.
  package static func scale(to pixelFormat: String) -> String {
    "scale=out_color_matrix=bt709:out_range=tv:flags=bicubic+accurate_rnd+full_chroma_int,format=\(pixelFormat)"
  }

  /// ``scale(to:)`` for frames `width` pixels wide. A 4:2:0 format (half-width chroma) from an
  /// odd width goes through 4:4:4 first (chroma at full width, then halved by a second scaler
  /// step): libswscale 5.1's packed-RGB input (`bgr32ToUV_half`) averages each pixel pair and, for
  /// an odd row, takes the next row's first pixel as the last one's partner, so the right edge
  /// of a frame got a false colour fringe (a black edge beside a red one decoded as 109, 0, 0).
  /// Even widths keep the one step, and their bytes.
  package static func scale(to pixelFormat: String, width: Int) -> String {
    guard width % 2 == 1, let full = fullChroma(of: pixelFormat) else { return scale(to: pixelFormat) }
    return scale(to: full) + "," + "scale=flags=bicubic+accurate_rnd,format=\(pixelFormat)"
  }

  /// The 4:4:4 format with the planes of the 4:2:0 `pixelFormat` (nil for any other format).
  static func fullChroma(of pixelFormat: String) -> String? {
    ["yuv420p": "yuv444p", "yuva420p": "yuva444p"][pixelFormat]
  }

  /// Marks frames BT.709, limited range (ProRes copies that into its frame headers).
  package static let colourParameters = "setparams=color_primaries=bt709:color_trc=bt709:colorspace=bt709:range=tv"

  /// Builds the command for `format`, reading `width × height` BGRA frames at `fps` (the
  /// output's rate: ``FrameSchedule`` has chosen a GIF's frames and checked its rate) and
  /// writing `output`; a GIF's palette goes to `palette` between its passes with `.png` or
  /// `.pam` appended (default: `output` with `.palette`).
  ///
  /// - Throws: ``VideoError/invalidSize(width:height:reason:)`` for odd H.264 sizes without
  ///   padding (suggesting an even `--size` for `canvas`, the frames' canvas, when given:
  ///   ``oddSizeAdvice(width:height:canvas:)``), and ``VideoError/invalidOption(_:)`` for
  ///   options the format cannot honour.
  ///
  /// With `fit` (an MP4 or WebM fitted to `--max-size`, ``VideoFitting``), the command is one
  /// pass of a two-pass encoding at a target bitrate, scaled to the fit's size; the first pass
  /// writes only its log.
  ///
  /// `gifFinalDelay` is a GIF's last delay in centiseconds
  /// (``FrameSchedule/Output/gifFinalDelay``); without it ffmpeg repeats the one before.
  package init(
    format: OutputFormat, width: Int, height: Int, fps: Int, options: EncodingOptions, output: String,
    palette: String? = nil, fit: TwoPass? = nil, gifFinalDelay: Int? = nil, canvas: Size? = nil
  ) throws(VideoError) {
    // A path that begins with `-` (`-o -y.mp4`) would be read as an option.
    let output = OutputFormat.optionSafe(output)
    let palette = palette.map(OutputFormat.optionSafe)
    func rawInput(fps: Int, pixelFormat: String = "bgra") -> [String] {
      [
        "-hide_banner", "-nostdin", "-loglevel", "error", "-y",
        "-f", "rawvideo", "-pix_fmt", pixelFormat, "-s", "\(width)x\(height)", "-framerate", "\(fps)",
        "-i", "pipe:0",
      ]
    }
    let input = rawInput(fps: fps)
    var args = input + ["-an", "-map_metadata", "-1"]
    let colourTags = [
      "-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709", "-color_range", "tv",
    ]
    // RGB → Y'CbCr with the BT.709 matrix, limited range; `setparams` marks the frames and the
    // output tags mark the stream, so players invert the right matrix.
    func toYUV(_ pixelFormat: String, width: Int = width) -> String {
      Self.scale(to: pixelFormat, width: width) + "," + Self.colourParameters
    }
    if fit != nil, format != .mp4, format != .webm {
      throw .invalidOption("internal: \(format.rawValue) has no two-pass encoding")
    }
    if let refusal = Self.refusal(format: format, width: width, height: height, options: options, canvas: canvas) {
      throw refusal.error(width: width, height: height)
    }
    switch format {
    case .mp4:
      var filters: [String] = []
      let sides = Self.mp4Size(width: width, height: height)
      if sides != (width, height) {
        let colour = "0x" + String(options.padColor, radix: 16).leftPadded(to: 6)
        filters.append("pad=\(sides.width):\(sides.height):0:0:color=\(colour)")
        filters += fit?.scale(from: sides.width, sides.height) ?? []
        filters.append(toYUV("yuv420p", width: fit?.width ?? sides.width))
      } else {
        readsYUV420 = true
        args = rawInput(fps: fps, pixelFormat: "yuv420p") + ["-an", "-map_metadata", "-1"]
        filters += fit?.scale(from: width, height) ?? []
        filters.append(Self.colourParameters)
      }
      let crf = options.crf ?? 18
      args += ["-vf", filters.joined(separator: ",")]
      args += ["-c:v", "libx264", "-preset", options.preset] + (fit?.rate ?? ["-crf", "\(crf)"])
      args += ["-profile:v", "high"]
      // A fixed thread count: x264's frame threads change its decisions, and by default it starts
      // 1.5 × the CPUs it sees, so the same job gave different bytes on different machines. A
      // first pass runs on one thread: with more, its statistics (the macroblock-tree file)
      // differed from run to run.
      args += ["-threads", "\(fit?.pass == 1 ? 1 : Self.x264Threads)"]
      args += ["-pix_fmt", "yuv420p"] + colourTags
      args += fit?.pass == 1 ? TwoPass.noOutput : ["-movflags", "+faststart", "-f", "mp4", output]
    case .gif:
      let scales = options.gifWidth.map { $0 != width } ?? false
      var chain: [String] = []
      if scales, let w = options.gifWidth { chain.append("scale=\(w):-1:flags=lanczos") }
      let stem = palette ?? output + ".palette"
      let colors = options.gifColors < 256 ? ":max_colors=\(options.gifColors)" : ""
      // The graph up to `paletteuse`: its two inputs, the frames and the palette.
      let inputs: String
      if chain.isEmpty && options.gifPalette == .flick && options.gifColors == 256 {
        if width >= 16 && height >= 16 {
          readsPaletteFirst = true
          inputs = Self.paletteFirst
        } else {
          let path = stem + ".pam"
          palettePath = path
          inputs = Self.movie(path, format: "pam_pipe") + "[p];[0:v][p]"
        }
      } else {
        let path = stem + ".png"
        palettePath = path
        palettePass =
          input + [
            "-an", "-vf", (chain + ["palettegen=stats_mode=diff" + colors]).joined(separator: ","),
            "-frames:v", "1", "-update", "1", "-f", "image2", path,
          ]
        let prepared = chain.isEmpty ? "[0:v]" : "[0:v]" + chain.joined(separator: ",") + "[f];[f]"
        inputs = Self.movie(path, format: "png_pipe") + "[p];" + prepared + "[p]"
      }
      // The encoding pass: the frames (scaled first, when asked) and the palette image into
      // `paletteuse`. A palette file is read by a `movie` source inside the graph, not as a
      // second input: with two inputs ffmpeg reads each on a thread of its own through a queue
      // of up to eight frames, which raised its peak memory and made it swing from run to run
      // (the same bytes either way; docs/benchmarks.md, "GIF size and memory").
      args =
        input + ["-an", "-map_metadata", "-1"]
        + ["-filter_complex", inputs + "paletteuse=" + Self.paletteUse(options.dither)]
        + ["-loop", "\(Self.gifLoop(plays: options.plays))"]
        + (gifFinalDelay.map { ["-final_delay", "\($0)"] } ?? []) + ["-f", "gif", output]
    case .webm:
      let crf = options.crf ?? 30
      let filters = (fit?.scale(from: width, height) ?? []) + [toYUV("yuva420p", width: fit?.width ?? width)]
      args += ["-vf", filters.joined(separator: ",")]
      args += ["-c:v", "libvpx-vp9", "-pix_fmt", "yuva420p"] + (fit?.rate ?? ["-crf", "\(crf)", "-b:v", "0"])
      args += ["-deadline", "good", "-cpu-used", "4", "-row-mt", "1", "-auto-alt-ref", "0"]
      // As for x264: a fixed thread count, and no random segment UID in the Matroska header,
      // so the same job gives the same WebM bytes on every run and machine.
      args += ["-threads", "\(Self.vp9Threads)", "-fflags", "+bitexact"]
      args += colourTags + (fit?.pass == 1 ? TwoPass.noOutput : ["-f", "webm", output])
    case .mov:
      args += ["-vf", toYUV("yuva444p10le")]
      args += [
        "-c:v", "prores_ks", "-profile:v", "4444", "-pix_fmt", "yuva444p10le", "-alpha_bits", "16",
        "-vendor", "apl0",
      ]
      args += colourTags + ["-f", "mov", output]
    case .apng:
      args += ["-c:v", "apng", "-pix_fmt", "rgba", "-plays", "\(options.plays)", "-f", "apng", output]
    case .webp:
      // WebP times frames in whole milliseconds. In the stream's own time base (1/fps) ffmpeg
      // truncates each start time, so frames began up to 1 ms early; in a 1/1000 base each
      // starts at the nearest millisecond (docs/video.md, "Animated WebP timing").
      args += ["-enc_time_base", "1:1000"]
      // ffmpeg's own conversion to yuva420p, through 4:4:4 for an odd width (``scale(to:width:)``).
      if width % 2 == 1 { args += ["-vf", "format=yuva444p,format=yuva420p"] }
      args += [
        "-c:v", "libwebp_anim", "-pix_fmt", "yuva420p", "-quality", "90", "-loop", "\(options.plays)",
        "-f", "webp", output,
      ]
    case .png, .bgra:
      throw .invalidOption("\(format.rawValue) output is written by Flick, not ffmpeg")
    }
    self.arguments = args
  }

  /// A filter graph's `movie` source reading the one image at `path` with the demuxer `format`
  /// (no probing) and one decoding thread. The path is a `file:` URL, so no name is taken for
  /// another protocol (`a:b.png`), and it is escaped twice: the graph is split at `[`, `]`, `,`
  /// and `;` first, then the filter splits its options at `:` and `=`, each with the same
  /// escapes.
  static func movie(_ path: String, format: String) -> String {
    "movie=filename=" + filterEscaped(filterEscaped("file:" + path)) + ":f=" + format + ":dec_threads=1"
  }

  /// `value` with one level of ffmpeg's filter escapes (`av_get_token`): `\` and `'` escape,
  /// the separators end a token and white space at either end is dropped, so every ASCII
  /// character but letters, digits and `/._-` gets a backslash before it. Characters beyond
  /// ASCII pass as they are: their UTF-8 bytes are none of those.
  static func filterEscaped(_ value: String) -> String {
    var escaped = ""
    for scalar in value.unicodeScalars {
      let plain =
        !scalar.isASCII || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
        || "/._-".unicodeScalars.contains(scalar)
      if !plain { escaped.unicodeScalars.append("\\") }
      escaped.unicodeScalars.append(scalar)
    }
    return escaped
  }

  /// The graph's start when the palette comes first on the input (``readsPaletteFirst``): the
  /// first frame's top-left 16 × 16 pixels are the palette, every later frame is the GIF's, with
  /// its timestamps moved back by one frame so they start at 0 as the GIF's own frames did.
  static let paletteFirst =
    "[0:v]split[f][q];[q]trim=end_frame=1,crop=16:16:0:0[p];[f]trim=start_frame=1,setpts=PTS-STARTPTS[v];[v][p]"

  /// `paletteuse` options for a dither choice; `diff_mode=rectangle` re-dithers only the part of
  /// each frame that changed, which keeps still areas from shimmering.
  static func paletteUse(_ dither: EncodingOptions.Dither) -> String {
    switch dither {
    case .bayer: return "dither=bayer:bayer_scale=5:diff_mode=rectangle"
    default: return "dither=\(dither.rawValue):diff_mode=rectangle"
    }
  }

  /// ffmpeg's GIF `-loop` for a play count: 0 plays (forever) → 0, 1 → -1 (no loop extension),
  /// N → N − 1 repeats.
  static func gifLoop(plays: Int) -> Int {
    plays == 0 ? 0 : (plays == 1 ? -1 : plays - 1)
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
