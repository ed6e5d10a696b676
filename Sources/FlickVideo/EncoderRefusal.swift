import FlickMotion

/// A setting of one output that its format refuses: a CRF outside the codec's range, odd sides
/// for H.264 in yuv420p without padding, a GIF rate that cannot be kept. `flick render` finds it
/// before it draws (``FFmpegCommand/refusal(format:width:height:options:canvas:spelling:)``,
/// ``FrameSchedule/refusal(renderFPS:frames:format:options:spelling:)``), and `flick plan` runs
/// the same rules on each job of a manifest, so no plan holds a job its workers can only fail.
package struct EncoderRefusal: Sendable, Equatable {
  /// The setting at fault.
  package enum Setting: Sendable, Equatable {
    case crf, preset, gifWidth, gifColors, gifFPS
    /// The frame size (odd sides for H.264 without padding).
    case size
  }

  /// How a message names the settings: `flick render`'s options (`--crf`) or a manifest
  /// render's keys (`encoding.crf`).
  package enum Spelling: Sendable {
    case commandLine, manifest

    /// The name of `setting`: `--crf` or `encoding.crf`.
    package func name(_ setting: Setting) -> String {
      let (option, key): (String, String) =
        switch setting {
        case .crf: ("--crf", "encoding.crf")
        case .preset: ("--preset", "encoding.preset")
        case .gifWidth: ("--gif-width", "encoding.gifWidth")
        case .gifFPS: ("--gif-fps", "encoding.gifFps")
        case .gifColors: ("the palette size", "the palette size")
        case .size: ("--size", "sizes")
        }
      return self == .commandLine ? option : key
    }

    /// The manifest key of `setting` in a render's `encoding` object, nil for the size.
    package static func key(_ setting: Setting) -> String? {
      switch setting {
      case .crf: "crf"
      case .preset: "preset"
      case .gifWidth: "gifWidth"
      case .gifFPS: "gifFps"
      case .gifColors, .size: nil
      }
    }
  }

  /// The setting at fault.
  package var setting: Setting
  /// Why, naming the setting in the spelling asked for.
  package var reason: String

  package init(_ setting: Setting, _ reason: String) {
    self.setting = setting
    self.reason = reason
  }

  /// The error `flick render` throws for it: ``VideoError/invalidSize(width:height:reason:)``
  /// for the size, ``VideoError/invalidOption(_:)`` for any other setting.
  package func error(width: Int, height: Int) -> VideoError {
    setting == .size ? .invalidSize(width: width, height: height, reason: reason) : .invalidOption(reason)
  }
}

extension FFmpegCommand {
  /// What `format`'s encoder refuses of `options` for frames of `width × height` (the frames'
  /// canvas `canvas`, for the even size suggested), named in `spelling`; nil when it takes them.
  /// ``init(format:width:height:fps:options:output:palette:fit:gifFinalDelay:canvas:)`` throws
  /// it, and `flick plan` asks it of every job.
  package static func refusal(
    format: OutputFormat, width: Int, height: Int, options: EncodingOptions, canvas: Size?,
    spelling: EncoderRefusal.Spelling = .commandLine
  ) -> EncoderRefusal? {
    switch format {
    case .mp4:
      if !options.pad, mp4Size(width: width, height: height) != (width, height) {
        return EncoderRefusal(
          .size, oddSizeAdvice(width: width, height: height, canvas: canvas, spelling: spelling))
      }
      let crf = options.crf ?? 18
      if !(1...51).contains(crf) {
        return EncoderRefusal(
          .crf,
          "\(escaped: spelling.name(.crf)) \(crf) is outside 1…51 for H.264 (0 makes files most players cannot open)")
      }
      if !EncodingOptions.presets.contains(options.preset) {
        return EncoderRefusal(
          .preset,
          "\(escaped: spelling.name(.preset)) \(quoted: options.preset) is not an x264 preset; use one of "
            + EncodingOptions.presets.joined(separator: ", "))
      }
    case .webm:
      let crf = options.crf ?? 30
      if !(0...63).contains(crf) {
        return EncoderRefusal(.crf, "\(escaped: spelling.name(.crf)) \(crf) is outside 0…63 for VP9")
      }
    case .gif:
      if let w = options.gifWidth, !(1...16384).contains(w) {
        return EncoderRefusal(.gifWidth, "\(escaped: spelling.name(.gifWidth)) \(w) is outside 1…16384")
      }
      if !(2...256).contains(options.gifColors) {
        return EncoderRefusal(.gifColors, "a GIF palette of \(quoted: options.gifColors) colours is outside 2…256")
      }
    default:
      break
    }
    return nil
  }
}
