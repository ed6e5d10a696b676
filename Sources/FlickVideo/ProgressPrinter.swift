import FlickMotion
import Foundation

/// Shows ``RenderProgress`` on stderr: a live bar on a terminal, JSON lines for CI logs, or
/// nothing. It reads the monotonic clock for rates and ETAs, which only ever affects what is
/// displayed, never what is rendered.
package final class ProgressPrinter {
  /// How progress is shown.
  package enum Style: String, Sendable, CaseIterable {
    /// A bar redrawn in place: frames done/total, percent, frames per second, ETA.
    case bar
    /// One JSON object per line: `{"stage":"render","frame":45,"total":90,"fps":61.8,"eta":0.73}`.
    case json
    /// Nothing.
    case none
  }

  /// The style in use.
  package let style: Style
  private let write: (String) -> Void
  private let start: UInt64
  private var lastPrint: UInt64 = 0
  private var lastStage: RenderProgress.Stage?
  /// The ``RenderProgress/Step/phase`` of the last finish step shown (a new one is always
  /// shown), and when it was first reported (for its own ETA).
  private var lastStep: String?
  private var stepStart: UInt64 = 0
  private var barShown = false

  /// A printer in `style`, writing through `write` (default: stderr).
  package init(style: Style, write: @escaping (String) -> Void = ProgressPrinter.standardError) {
    self.style = style
    self.write = write
    self.start = DispatchTime.now().uptimeNanoseconds
  }

  /// `.bar` when stderr is a terminal, otherwise `.none`.
  package static var automatic: Style { isatty(2) == 1 ? .bar : .none }

  /// Writes text to stderr unbuffered.
  package static func standardError(_ text: String) {
    StandardStream.writeError(text)
  }

  /// Seconds since the printer was made.
  package var elapsed: Double {
    Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  }

  /// Reports `progress`; redraws at most ten times a second (JSON four times), and always at a
  /// stage change, the last frame rendered or a new finish step (gifsicle after the encoding pass).
  package func report(_ progress: RenderProgress) {
    guard style != .none else { return }
    let now = DispatchTime.now().uptimeNanoseconds
    let interval: UInt64 = style == .bar ? 100_000_000 : 250_000_000
    let step = progress.step?.phase
    let important =
      progress.stage != lastStage || step != lastStep
      || (progress.step == nil && progress.framesDone == progress.totalFrames && progress.stage == .render)
    guard important || now - lastPrint >= interval else { return }
    if step != lastStep { stepStart = now }
    lastPrint = now
    lastStage = progress.stage
    lastStep = step
    let seconds = Double(now - start) / 1e9
    let fps = seconds > 0 ? Double(progress.framesDone) / seconds : 0
    let remaining = progress.totalFrames - progress.framesDone
    var eta = fps > 0 ? Double(remaining) / fps : 0
    if let step = progress.step {
      // A finish step's own time left: a GIF's encoding pass at its rate so far; unknown (-1,
      // shown as --:--) for gifsicle and a --max-size encoding.
      eta = -1
      if case .encodingGIF(_, let frame, let frames) = step, frame > 0, now > stepStart {
        eta = Double(frames - frame) * (Double(now - stepStart) / 1e9) / Double(frame)
      }
    }
    switch style {
    case .bar:
      write("\r" + Self.bar(progress, fps: fps, eta: eta) + "\u{1B}[K")
      barShown = true
      if progress.stage == .done { endLine() }
    case .json:
      write(Self.json(progress, fps: fps, eta: eta) + "\n")
    case .none:
      break
    }
  }

  /// Ends the bar's line (before an error or summary is printed).
  package func endLine() {
    if barShown {
      write("\n")
      barShown = false
    }
  }

  /// The bar text for `progress`; `eta` in seconds, below 0 when not known (`--:--`).
  static func bar(_ p: RenderProgress, fps: Double, eta: Double) -> String {
    let width = 28
    let fraction = p.totalFrames > 0 ? Double(p.framesDone) / Double(p.totalFrames) : 1
    let filled = Int((fraction * Double(width)).rounded(.down))
    let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
    let stage =
      switch p.stage {
      case .render: ""
      case .secondPass: "  GIF pass"
      case .finish: "  finishing" + (p.step.map { ": " + describe($0) } ?? "")
      case .done: "  done"
      }
    return "\(bar) \(p.framesDone)/\(p.totalFrames) \(Int((fraction * 100).rounded(.down)))%  "
      + String(format: "%.1f fps  ETA ", fps) + (fps > 0 && eta >= 0 ? clock(eta) : "--:--") + stage
  }

  /// One JSON line for `progress`; a finish step adds `step` (`encode-gif`, `gifsicle`,
  /// `max-size`), `output` and what the step has: `done` and `of` (frames sent to the encoding
  /// pass), or `encoding` and `setting` (the `--max-size` candidate being encoded). An `eta` not
  /// known (below 0) is written 0, as before there were steps.
  static func json(_ p: RenderProgress, fps: Double, eta: Double) -> String {
    var line =
      "{\"stage\":\"\(p.stage.rawValue)\",\"frame\":\(p.framesDone),\"total\":\(p.totalFrames),"
      + String(format: "\"fps\":%.2f,\"eta\":%.2f", fps, max(0, eta))
    if let step = p.step {
      line += ",\"step\":\"\(step.kind)\",\"output\":\(JSONText.quoted(step.destination))"
      switch step {
      case .encodingGIF(_, let frame, let frames): line += ",\"done\":\(frame),\"of\":\(frames)"
      case .optimizingGIF: break
      case .fitting(_, let encoding, let setting):
        line += ",\"encoding\":\(encoding),\"setting\":\(JSONText.quoted(setting))"
      }
    }
    return line + "}"
  }

  /// A finish step for the bar: `GIF 120/300 (a.gif)`, `gifsicle -O3 (a.gif)`,
  /// `--max-size, encoding 3: 20 fps, 480 px wide, 256 colours (a.gif)`.
  package static func describe(_ step: RenderProgress.Step) -> String {
    // Escaped: a file name may hold anything, a terminal's control sequences included.
    let name = MessageText.escaped((step.destination as NSString).lastPathComponent)
    switch step {
    case .encodingGIF(_, let frame, let frames): return "GIF \(frame)/\(frames) (\(name))"
    case .optimizingGIF: return "gifsicle -O3 (\(name))"
    case .fitting(_, let encoding, let setting): return "--max-size, encoding \(encoding): \(setting) (\(name))"
    }
  }

  /// `m:ss` for a duration in seconds.
  static func clock(_ seconds: Double) -> String {
    let s = Int(seconds.rounded(.up))
    return String(format: "%d:%02d", s / 60, s % 60)
  }

  /// `1.4 MB`-style size.
  package static func size(_ bytes: Int) -> String {
    if bytes < 1000 { return "\(bytes) B" }
    if bytes < 1_000_000 { return String(format: "%.1f kB", Double(bytes) / 1000) }
    return String(format: "%.1f MB", Double(bytes) / 1_000_000)
  }
}
