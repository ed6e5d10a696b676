import FlickMotion
import Foundation

/// A located and checked ffmpeg executable.
///
/// ``locate(for:environment:)`` finds `ffmpeg` (the `FLICK_FFMPEG` variable, else `PATH`), checks
/// its version and that it has the encoders the requested formats need, before any frame is
/// rendered.
public struct FFmpegTool: Sendable, Equatable {
  /// The oldest ffmpeg Flick supports (major, minor): `palettegen` diff statistics, the APNG
  /// `-plays` option and `libwebp_anim` are all older than this.
  public static let minimumVersion = (4, 2)

  /// Absolute path of the executable.
  public var path: String
  /// The version string ffmpeg reports (`5.1.9-0+deb12u1`, `N-112233-gabc` for git builds).
  public var version: String

  public init(path: String, version: String) {
    self.path = path
    self.version = version
  }

  /// Finds and checks ffmpeg for `formats`.
  ///
  /// - Throws: ``VideoError/ffmpegMissing``, ``VideoError/ffmpegTooOld(found:)`` or
  ///   ``VideoError/encoderMissing(encoder:format:)``.
  public static func locate(
    for formats: [OutputFormat], environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(VideoError) -> FFmpegTool {
    try check(path: try find(environment: environment), for: formats)
  }

  /// The ffmpeg executable to use (`FLICK_FFMPEG`, else the first `ffmpeg` on `PATH`), not yet
  /// run.
  ///
  /// - Throws: ``VideoError/ffmpegOverride(path:problem:)`` when `FLICK_FFMPEG` names no
  ///   program that can run, ``VideoError/ffmpegMissing`` when none is on `PATH`.
  public static func find(environment: [String: String] = ProcessInfo.processInfo.environment) throws(VideoError)
    -> String
  {
    if let explicit = environment["FLICK_FFMPEG"], !explicit.isEmpty {
      let program = overrideProgram(explicit, environment: environment)
      if let problem = program.problem { throw .ffmpegOverride(path: explicit, problem: problem) }
      return program.path
    }
    guard let path = findExecutable("ffmpeg", path: searchPath(environment)) else {
      throw .ffmpegMissing
    }
    return path
  }

  /// The program a tool variable (`FLICK_FFMPEG`, `FLICK_GIFSICLE`) names, the one rule for every
  /// override: a value with a `/` is a path, used as it is; a bare name (`gifsicle`) is looked up on
  /// `PATH` as a shell would. `path` is the program to run (the value when it cannot be run), and
  /// `problem` why it cannot (to follow "which" in a message), nil when it can.
  package static func overrideProgram(_ value: String, environment: [String: String]) -> (
    path: String, problem: String?
  ) {
    guard !value.contains("/") else { return (value, overrideProblem(value)) }
    guard let found = findExecutable(value, path: searchPath(environment)) else {
      return (value, "is not a program on PATH (a bare name is looked up on PATH; a path needs a '/')")
    }
    return (found, nil)
  }

  /// The folders a bare program name is looked up in: `PATH`, or the usual folders when it is unset.
  package static func searchPath(_ environment: [String: String]) -> String {
    environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
  }

  /// Why the program at `path` (a tool variable's value with a `/`) cannot be run, to
  /// follow "which" in a message: `does not exist`, `is a folder, not a program`, `is not a
  /// regular file` or `is not executable`; nil for an executable file (links followed).
  package static func overrideProblem(_ path: String) -> String? {
    var info = stat()
    guard stat(path, &info) == 0 else {
      return errno == EACCES ? "cannot be reached (permission denied)" : "does not exist"
    }
    switch info.st_mode & S_IFMT {
    case S_IFDIR: return "is a folder, not a program"
    case S_IFREG: return access(path, X_OK) == 0 ? nil : "is not executable"
    default: return "is not a regular file"
    }
  }

  /// Checks the ffmpeg at `path`: its version, and that it has the encoders `formats` need.
  /// One ffmpeg start-up: `ffmpeg -encoders` prints its banner (the version) on stderr before
  /// the list, or `ffmpeg -version` when no encoder is needed.
  ///
  /// - Throws: ``VideoError/notFFmpeg(path:)``, ``VideoError/ffmpegTooOld(found:)`` or
  ///   ``VideoError/encoderMissing(encoder:format:)``.
  public static func check(path: String, for formats: [OutputFormat]) throws(VideoError) -> FFmpegTool {
    let needed = formats.compactMap { f in f.ffmpegEncoder.map { (f, $0) } }
    let output = try capture(path, needed.isEmpty ? ["-hide_banner", "-version"] : ["-encoders"])
    let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
    guard let versionLine = lines.first(where: { $0.hasPrefix("ffmpeg version") }) else { throw .notFFmpeg(path: path) }
    let version = parseVersion(String(versionLine)) ?? "(unknown version)"
    if let (major, minor) = numericVersion(version),
      (major, minor) < minimumVersion
    {
      throw .ffmpegTooOld(found: version)
    }
    if !needed.isEmpty {
      // The list follows its legend, which ends with a line of dashes.
      let list = lines.drop { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("------") }
      let names = Set(
        list.compactMap { line -> Substring? in
          let fields = line.split(separator: " ", omittingEmptySubsequences: true)
          return fields.count >= 2 && fields[0].count == 6 ? fields[1] : nil
        })
      for (format, encoder) in needed where !names.contains(Substring(encoder)) {
        throw .encoderMissing(encoder: encoder, format: format)
      }
    }
    return FFmpegTool(path: path, version: version)
  }

  /// ``locate(for:environment:)`` split in two: the executable is found at once (``unchecked()``),
  /// so an encoder can be started with it, and the check (an ffmpeg start-up of its own, about
  /// 0.07 s of CPU) runs only when its answer is needed: ``tool()``, called by `--dry-run` and to
  /// explain an encoder that failed. A render whose encoders succeed never pays for it; a
  /// missing encoder, a too-old ffmpeg or a broken one still ends with the check's message,
  /// because such an ffmpeg fails on the options Flick gives it.
  package final class Probe: Sendable {
    private let answer = Locked<Result<FFmpegTool, VideoError>?>(nil)
    private let formats: [OutputFormat]
    private let found: Result<String, VideoError>

    /// Finds the ffmpeg that will be checked for `formats` (nothing is run yet).
    package init(for formats: [OutputFormat], environment: [String: String] = ProcessInfo.processInfo.environment) {
      self.formats = formats
      found = Result { () throws(VideoError) in try FFmpegTool.find(environment: environment) }
    }

    /// The executable found, as a tool whose check has not run: what encoders start with. A
    /// step that fails with it has its error explained by ``explaining(_:)``.
    ///
    /// - Throws: ``VideoError/ffmpegMissing`` when there is none.
    package func unchecked() throws(VideoError) -> FFmpegTool {
      FFmpegTool(path: try found.get(), version: "(not checked)")
    }

    /// `error`, or the check's failure when the check fails (run now, on the first call): an
    /// ffmpeg without an encoder, too old for an option or broken makes the steps that run it
    /// fail, and the check says why.
    package func explaining(_ error: any Error) -> any Error {
      if case .failure(let failure) = Result(catching: { () throws(VideoError) in try tool() }) { return failure }
      return error
    }

    /// The checked ffmpeg: the check runs on the first call and its answer is kept.
    ///
    /// - Throws: what ``FFmpegTool/locate(for:environment:)`` throws.
    package func tool() throws(VideoError) -> FFmpegTool {
      let formats = self.formats
      let found = self.found
      return try answer.withLock { answer in
        if let answer { return answer }
        let checked = Result { () throws(VideoError) in try FFmpegTool.check(path: try found.get(), for: formats) }
        answer = checked
        return checked
      }.get()
    }
  }

  /// The version word of `ffmpeg -version` output's first line.
  static func parseVersion(_ output: String) -> String? {
    guard let first = output.split(separator: "\n").first else { return nil }
    let words = first.split(separator: " ")
    guard let i = words.firstIndex(of: "version"), i + 1 < words.count else { return nil }
    return String(words[i + 1])
  }

  /// (major, minor) of a release version (`5.1.9-0+deb12u1`, `n6.0`); nil for git snapshots,
  /// which are accepted as new.
  static func numericVersion(_ version: String) -> (Int, Int)? {
    let trimmed = version.hasPrefix("n") ? version.dropFirst() : Substring(version)
    let parts = trimmed.split(whereSeparator: { !$0.isNumber }).prefix(2).compactMap { Int($0) }
    guard trimmed.first?.isNumber == true, let major = parts.first else { return nil }
    return (major, parts.count > 1 ? parts[1] : 0)
  }

  /// The full path of `name` in the `:`-separated `path`, or nil.
  static func findExecutable(_ name: String, path: String) -> String? {
    for dir in path.split(separator: ":") where !dir.isEmpty {
      let candidate = "\(dir)/\(name)"
      var isDirectory: ObjCBool = false
      if access(candidate, X_OK) == 0,
        FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue
      {
        return candidate
      }
    }
    return nil
  }

  /// How long a probe (`-version`, `-encoders`) may run before it is killed, in seconds: a guard
  /// against an ffmpeg that hangs, not an expectation of speed. It answers in about 30 ms on an
  /// idle machine, but took over 10 s on a 2-core machine starved by a build at load 15 (a render
  /// failed there with a 10-second limit). `FLICK_PROBE_TIMEOUT` (whole seconds, 1–600) sets another
  /// limit; anything else leaves 60.
  static let probeTimeout = requestedProbeTimeout(environment: ProcessInfo.processInfo.environment)

  /// The probe limit `environment` asks for (`FLICK_PROBE_TIMEOUT`, whole seconds in 1...600),
  /// else 60 s.
  static func requestedProbeTimeout(environment: [String: String]) -> Double {
    guard let text = environment["FLICK_PROBE_TIMEOUT"], let seconds = Int(text), (1...600).contains(seconds) else {
      return 60
    }
    return Double(seconds)
  }

  /// Runs `executable` with `arguments` and returns its standard output and error, merged (the
  /// last 4 MiB). The child is a ``Subprocess`` (an interruption kills its group) and is killed
  /// with its group after ``probeTimeout`` seconds.
  ///
  /// - Throws: ``VideoError/notFFmpeg(path:)`` when it cannot start (no usable ffmpeg),
  ///   ``VideoError/launchFailed(_:)`` saying it did not answer in time.
  private static func capture(_ executable: String, _ arguments: [String]) throws(VideoError) -> String {
    let process: Subprocess
    do {
      process = try Subprocess(
        executable: executable, arguments: arguments, output: .pipe, error: .output, keep: 4 << 20)
    } catch {
      throw .notFFmpeg(path: executable)
    }
    guard process.waitOrStop(timeout: probeTimeout) != nil else {
      throw .launchFailed(
        "\(quoted: executable) \(quoted: arguments.joined(separator: " ")) did not answer within \(Int(probeTimeout)) s"
      )
    }
    return process.outputText
  }

}
