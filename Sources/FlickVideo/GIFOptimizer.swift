import FlickMotion
import Foundation

/// gifsicle, run on every finished GIF when it is installed: `gifsicle -O3` stores each image
/// as the smallest changed rectangle with transparency and picks LZW choices ffmpeg does not,
/// which makes Flick's GIFs 4–10 % smaller with exactly the same pixels and delays. With a
/// lossy strength (``OutputBudget``'s last resort) it also lets LZW match pixels that are close,
/// changing pixels.
///
/// gifsicle also stores a run of frames that map to the same palette indices as one image with
/// the run's delay (the picture at every time stays the same), so it does not run on a GIF that
/// keeps one image per frame (`--every-frame`).
///
/// Found as `FLICK_GIFSICLE` (a path, or a bare name looked up on `PATH`:
/// ``FFmpegTool/overrideProgram(_:environment:)``; `none` turns the pass off), else `gifsicle` on `PATH`.
/// When it is absent the GIF is what ffmpeg wrote; `flick render` says so once. When it fails, or
/// the memory watch leaves less than it would need (``Failure``), the GIF is kept as Flick encoded
/// it and `flick render` warns that its bytes differ from an optimised run's; a batch job fails
/// instead (``EncodingOptions/requiresGIFOptimizer``).
package struct GIFOptimizer: Sendable, Equatable {
  /// The gifsicle executable.
  package var path: String

  package init(path: String) { self.path = path }

  /// What gifsicle did to a GIF at its own settings, for the summary: its size before and after
  /// (the same when ffmpeg's file was kept, gifsicle's being no smaller), and how long it ran.
  package struct Outcome: Sendable, Equatable {
    /// Bytes before and after.
    package var before: Int
    package var after: Int
    /// Wall-clock seconds gifsicle ran (shown, never used for a decision).
    package var seconds: Double
    /// Why gifsicle did not run, when it did not: the memory it would need was more than an MP4
    /// of the GIF's size needs (``GIFOptimizer/allowance(width:height:preset:)``).
    package var skipped: Skip? = nil
    /// gifsicle's `--lossy` strength (0: the lossless pass), for a `--max-size` setting's pass.
    package var lossy = 0

    /// What follows the GIF's path in `flick render`'s summary: `made 3.2 % smaller by gifsicle
    /// -O3 (9.4 MB → 9.1 MB in 3.9 s; FLICK_GIFSICLE=none skips this step)` (`-O3 --lossy=20`
    /// for a lossy setting), that ffmpeg's file was kept, or why gifsicle did not run.
    package var note: String {
      if let skipped { return skipped.note }
      let time = String(format: "%.1f s", seconds)
      let flags = lossy > 0 ? "-O3 --lossy=\(lossy)" : "-O3"
      guard after < before, before > 0 else {
        return lossy > 0
          ? "gifsicle \(escaped: flags) made it no smaller (\(time))"
          : "kept as ffmpeg wrote it: gifsicle -O3 made it no smaller (\(time))"
      }
      let saved = String(format: "%.1f", Double(before - after) * 100 / Double(before))
      return
        "made \(saved) % smaller by gifsicle \(escaped: flags) (\(ProgressPrinter.size(before)) → "
        + "\(ProgressPrinter.size(after)) in \(time); FLICK_GIFSICLE=none skips this step)"
    }
  }

  /// gifsicle left out because it would need more memory than an MP4 of the GIF's size
  /// (``allowance(width:height:preset:)``): a rule of the GIF's own bytes and size alone, so the
  /// same render leaves it out on every machine, whatever the memory in use.
  package struct Skip: Sendable, Equatable {
    /// Bytes gifsicle would need (``memory(file:pixels:)``).
    package var needed: Int
    /// Bytes it may use (``allowance(width:height:preset:)``).
    package var allowance: Int

    /// `kept as ffmpeg wrote it: gifsicle -O3 would need about 143 MiB, more than an MP4 of this size (96 MiB)`.
    package var note: String {
      "kept as ffmpeg wrote it: gifsicle -O3 would need about \(RenderLimits.format(bytes: needed)), more than "
        + "an MP4 of this size (\(RenderLimits.format(bytes: max(0, allowance))))"
    }
  }

  /// What gifsicle needs to optimise a GIF of `file` bytes whose images cover `pixels` pixels in
  /// all, in bytes: it reads the whole file, keeps every image uncompressed at one byte a pixel
  /// while it compares frames, and builds its output in memory, so twice the file, the pixels,
  /// and 2 MiB of its own. Measured (gifsicle 1.93, peak RSS): 24.7 MB for card-swap's 2.4 MB
  /// GIF of 19.8 M pixels (estimate 26.7 MB), 134 MB for a 13.3 MB GIF of 115 M (estimate 144 MB).
  package static func memory(file: Int, pixels: Int) -> Int {
    MemoryEstimate.add(MemoryEstimate.add(MemoryEstimate.mul(file, 2), pixels), 2 << 20)
  }

  /// The memory gifsicle may use on a GIF of `width × height` frames, in bytes: what ffmpeg needs
  /// to encode an MP4 of that size with x264's `preset` (``MemoryEstimate``), so a GIF's process
  /// tree needs no more than an MP4's. It depends on the size and preset alone, never on the
  /// memory in use, so whether gifsicle runs (and so the GIF's bytes) does not either; what the
  /// memory watch leaves when gifsicle would start is checked after it (``Failure/Cause/memory(needed:left:)``).
  /// gifsicle's gain is small where it would need much: a GIF whose images cover whole frames
  /// leaves it little to crop (1.7 % on a 10 s clip at 640×360, against 10 % on card-swap, whose
  /// images are small).
  package static func allowance(width: Int, height: Int, preset: String) -> Int {
    MemoryEstimate.encoderBytes(.mp4, width: width, height: height, preset: preset)
  }

  /// gifsicle left out of a GIF of `file` bytes whose images cover `pixels` pixels, or nil when it
  /// runs: when ``memory(file:pixels:)`` is more than `allowance` (``allowance(width:height:preset:)``).
  package static func skip(file: Int, pixels: Int, allowance: Int) -> Skip? {
    let needed = memory(file: file, pixels: pixels)
    return needed > allowance ? Skip(needed: needed, allowance: allowance) : nil
  }

  /// The gifsicle to run, or nil when there is none (or `FLICK_GIFSICLE=none`).
  package static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) -> GIFOptimizer? {
    if let explicit = environment["FLICK_GIFSICLE"], !explicit.isEmpty {
      guard explicit != "none" else { return nil }
      let program = FFmpegTool.overrideProgram(explicit, environment: environment)
      return program.problem == nil ? GIFOptimizer(path: program.path) : nil
    }
    return FFmpegTool.findExecutable("gifsicle", path: FFmpegTool.searchPath(environment))
      .map(GIFOptimizer.init(path:))
  }

  /// What decides the bytes this gifsicle writes, for batch job ids: the first line of
  /// `gifsicle --version` (`LCDF Gifsicle 1.93`), or the path when it does not answer within 10 s.
  package var version: String {
    guard
      let process = try? Subprocess(
        executable: path, arguments: ["--version"], output: .pipe, error: .output, keep: 1 << 16)
    else { return "unlaunchable \(path)" }
    guard process.waitOrStop(timeout: 10) == .exited(0) else {
      return "unanswered \(path)"
    }
    return process.outputText.split(separator: "\n").first.map(String.init) ?? "unknown \(path)"
  }

  /// The gifsicle a render here would run, as job ids record it: its ``version``, or `none`.
  /// A GIF's bytes depend on it (``GIFOptimizer`` rewrites every GIF when it is installed).
  package static func identity(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
    locate(environment: environment)?.version ?? "none"
  }

  /// The warning `flick render` prints instead of ``absentNote`` when `FLICK_GIFSICLE` names a
  /// program that cannot run (``FFmpegTool/overrideProgram(_:environment:)``): the variable, its value and
  /// what is wrong with it; nil when it is unset, empty, `none` or an executable file.
  package static func overrideWarning(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
    guard let explicit = environment["FLICK_GIFSICLE"], !explicit.isEmpty, explicit != "none",
      let problem = FFmpegTool.overrideProgram(explicit, environment: environment).problem
    else { return nil }
    return "warning: FLICK_GIFSICLE is '\(quoted: explicit)', which \(escaped: problem), so GIFs are written as "
      + "ffmpeg makes them, without gifsicle's lossless pass; point FLICK_GIFSICLE at gifsicle, set it to none, "
      + "or unset it to use the gifsicle on PATH"
  }

  /// The note `flick render` prints once when GIFs are written without gifsicle.
  package static let absentNote =
    "note: gifsicle is not installed (or FLICK_GIFSICLE=none), so GIFs are written as ffmpeg makes them; "
    + "with it (apt-get install gifsicle) they are 4–10 % smaller with the same pixels"

  /// The arguments that optimise `input` into `output` (lossy LZW when `lossy` > 0).
  package static func arguments(input: String, output: String, lossy: Int) -> [String] {
    ["--no-warnings", "-O3"] + (lossy > 0 ? ["--lossy=\(lossy)"] : []) + [input, "-o", output]
  }

  /// Why gifsicle did not optimise a GIF: it could not start, failed, was killed, wrote nothing
  /// or made no progress for the stall timeout, or it was not started because the memory watch
  /// left less than it would need. The GIF it was given is still whole: ``GIFFinishing`` keeps it
  /// (with ``warning``), or fails the output when the options require gifsicle
  /// (``EncodingOptions/requiresGIFOptimizer``, a batch job, whose id names gifsicle).
  package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The gifsicle that ran, or would have.
    package var gifsicle: String
    /// The output the GIF is for.
    package var destination: String
    /// What kept gifsicle from optimising the GIF.
    package var cause: Cause

    /// What kept gifsicle from optimising a GIF: the state of this process or machine, never the
    /// GIF itself (a GIF gifsicle needs too much for is ``Skip``ped on every machine alike).
    package enum Cause: Sendable, Equatable {
      /// It ran, or tried to, and failed: `it exited with status 1: …` (with the end of its stderr).
      case failed(String)
      /// It was not started: it would need `needed` bytes (``GIFOptimizer/memory(file:pixels:)``),
      /// more than `left`, what the memory watch left under its bound when it would have started
      /// (``MemoryWatch/headroom()``).
      case memory(needed: Int, left: MemoryWatch.Headroom)
    }

    package init(gifsicle: String, destination: String, cause: Cause) {
      self.gifsicle = gifsicle
      self.destination = destination
      self.cause = cause
    }

    /// What happened: `it exited with status 1: …`, or `it would need about 143 MiB, more than the
    /// memory cap leaves now (20 MiB; --max-memory raises the cap, fewer --jobs leave more)`.
    package var reason: String {
      switch cause {
      case .failed(let reason): return reason
      case .memory(let needed, let left):
        let size = max(0, left.bytes)
        let bound = left.byGroup ? "limit of this process's control group (a container's or a job's)" : "cap"
        let remedy = left.byGroup ? "fewer --jobs leave more" : "--max-memory raises the cap, fewer --jobs leave more"
        return "it would need about \(RenderLimits.format(bytes: needed)), more than the memory \(escaped: bound) "
          + "leaves now (\(RenderLimits.format(bytes: size)); \(escaped: remedy))"
      }
    }

    /// `gifsicle /bin/false failed: it exited with status 1`, or `gifsicle /usr/bin/gifsicle did
    /// not run: it would need about …`: what a failed output says.
    package var summary: String {
      switch cause {
      case .failed: return "gifsicle \(quoted: gifsicle) failed: \(escaped: reason)"
      case .memory: return "gifsicle \(quoted: gifsicle) did not run: \(escaped: reason)"
      }
    }

    package var description: String {
      switch cause {
      case .failed: return "gifsicle \(quoted: gifsicle) could not optimise \(quoted: destination): \(escaped: reason)"
      case .memory: return "gifsicle \(quoted: gifsicle) did not run on \(quoted: destination): \(escaped: reason)"
      }
    }

    /// The warning of a render that kept the GIF without gifsicle's pass: the pixels are the
    /// same, the bytes are not those an optimised run writes on another machine (one with a
    /// working gifsicle, or with the memory it needs).
    package var warning: String {
      let start =
        "warning: \(escaped: description); kept \(quoted: destination) as Flick encoded it, without gifsicle's "
        + "lossless pass: the same pixels, but not the bytes (nor the size) a render with "
      switch cause {
      case .failed:
        return start + "a working gifsicle writes (fix or remove that gifsicle, or set FLICK_GIFSICLE=none to make "
          + "these bytes on purpose)"
      case .memory:
        return start + "enough memory for gifsicle writes (set FLICK_GIFSICLE=none to make these bytes on purpose)"
      }
    }
  }

  /// Writes `input` optimised to `output` (a temporary of `destination`'s, registered with
  /// ``Cleanup`` from before gifsicle starts; on success it stays registered until the caller
  /// has renamed or removed it).
  ///
  /// - Parameter stallTimeout: Seconds gifsicle may go without using CPU (nil: no bound).
  /// - Returns: nil on success; the ``Failure`` when gifsicle cannot start, does not finish,
  ///   fails or writes nothing (`output` is then removed, `input` untouched). A gifsicle killed
  ///   by an interruption waits here for the interruption to end the process.
  /// - Throws: ``VideoError/cannotWrite(path:reason:)`` when Flick cannot create `output`, or
  ///   gifsicle wrote it incomplete while exiting with status 0 (writing failed: a full disk),
  ///   which fails the output as an ffmpeg's write error does.
  func optimize(_ input: String, to output: String, lossy: Int, destination: String, stallTimeout: Double?)
    throws(VideoError) -> Failure?
  {
    try OutputEntry.reserveTemporaries([output], for: destination)
    func failed(_ reason: String) -> Failure {
      unlink(output)
      Cleanup.shared.remove(file: output)
      Interruption.waitIfInterrupted()
      return Failure(gifsicle: path, destination: destination, cause: .failed(reason))
    }
    let process: Subprocess
    do {
      process = try Subprocess(
        executable: path, arguments: Self.arguments(input: input, output: output, lossy: lossy), error: .pipe,
        files: [output])
    } catch {
      guard case .launchFailed(let reason) = error else { return failed("\(escaped: error)") }
      return failed("it could not be started: \(escaped: reason)")
    }
    let ending = process.waitOrStop(stall: stallTimeout)
    var written = stat()
    let wrote = lstat(output, &written) == 0 && written.st_size > 0
    if ending == .exited(0) && wrote {
      // gifsicle exits 0 when writing its output fails (a full disk): the file then ends early.
      guard let problem = ContainerCheck.problem(.gif, at: output) else { return nil }
      unlink(output)
      Cleanup.shared.remove(file: output)
      throw .cannotWrite(
        path: destination,
        reason: "gifsicle \(quoted: path) exited with status 0, but the file it wrote is incomplete "
          + "(\(escaped: problem)): is the disk full?")
    }
    let why: String
    switch ending {
    case .exited(0): why = "it wrote nothing"
    case .exited(let status): why = "it exited with status \(status)"
    case .signalled(let signal): why = "it was killed by signal \(signal)"
    case nil: why = "it made no progress for \(RenderLimits.format(seconds: stallTimeout ?? 0)) and was stopped"
    }
    let errors = process.errorText.trimmingCharacters(in: .whitespacesAndNewlines)
    return failed(errors.isEmpty ? why : "\(escaped: why): \(quoted: errors)")
  }
}
