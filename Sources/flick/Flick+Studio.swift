import FlickMotion
import FlickScene
import FlickStudio
import FlickTemplates
import FlickVideo
import Foundation

extension Flick {
  /// `flick studio [TEMPLATE… | FOLDER] [--port N] [--host ADDRESS] [--no-open] [--scale S] [--workers N]
  /// [--frame-timeout T] [--max-frames N] [--max-work N] [--max-memory B] [--max-template-bytes B]
  /// [--max-pixels N] [--max-text N]`
  enum Studio {
    static let help = """
      USAGE: flick studio [TEMPLATE... | FOLDER] [--port N] [--host 127.0.0.1] [--no-open]
                          [--scale S] [--workers N] [--frame-timeout T]

      Starts a local web app that previews the templates of FOLDER (default: the current folder),
      or only the TEMPLATE files given, or bundled templates by name (the deepest folder holding
      them all is the one opened; a symbolic link is opened under its name, its assets next to
      it), and follows every edit of a file they read. Prints one line, the URL to open (with the
      session token), and opens it in the default browser unless --no-open. Ctrl-C stops it.

      OPTIONS
        --port N        the port (default 0: a free port)
        --host ADDRESS  the numeric address to listen on (default 127.0.0.1, also for localhost;
                        ::1 for IPv6 loopback; any other address makes the studio reachable from
                        other machines and prints a warning)
        --no-open       do not open a browser
        --scale S       \(Flick.scaleHelp), of the preview frames (default 1)
        --workers N     render workers, each with warm caches (default 2)
        --frame-timeout T  answer a frame that draws longer than T with an error, give its worker's
                        place to a new one and refuse that template's frames until a file changes
                        (default 120s; FLICK_FRAME_TIMEOUT)
        --max-frames N, --max-work N, --max-memory B
                        the caps an export is checked against before its first frame, as
                        'flick render' checks a render (see 'flick render --help'; FLICK_MAX_FRAMES,
                        FLICK_MAX_WORK, FLICK_MAX_MEMORY); an export over one is refused
        --max-template-bytes B, --max-pixels N, --max-text N
                        the caps every template load checks, as 'flick still' checks them
                        (FLICK_MAX_TEMPLATE_BYTES, FLICK_MAX_PIXELS, FLICK_MAX_TEXT); --max-pixels
                        caps an export's frames too
      """

    /// The caps of an export (``FlickStudio/Studio/Options/exportLimits``).
    static let exportCaps = [Limits.frames, Limits.work, Limits.memory]
    /// The caps of every template load (``FlickStudio/Studio/Options/templateLimits``), those
    /// `flick still` takes but the whole command's `--timeout`: the studio runs until stopped.
    static let templateCaps = [Limits.templateBytes, Limits.pixels, Limits.text]

    /// The options that take a plain number, and what each takes.
    static let numbers: [String: NumberRule] = [
      "port": .whole(0...65535), "workers": .whole(1...64), "scale": Flick.scaleRule,
    ]
    /// The checks of every option with a number in its value, run as the arguments are parsed.
    static let checks = NumberRule.checks(numbers).merging(
      Limits.checks([Limits.frameTimeout] + exportCaps + templateCaps)
    ) { a, _ in
      a
    }

    static func run(_ args: [String]) throws {
      let a = try Arguments(
        args,
        valued: Set(
          ["port", "host", "scale", "workers", Limits.frameTimeout.option] + (exportCaps + templateCaps).map(\.option)),
        flags: ["help", "h", "no-open"], checks: checks)
      if a.has("help") || a.has("h") {
        StandardStream.writeOutputLine(help)
        return
      }
      let (folder, templates) = try opened(a.positionals)
      var options = FlickStudio.Studio.Options(folder: folder, templates: templates)
      if let port = try a.whole("port", in: numbers) { options.port = port }
      if let workers = try a.whole("workers", in: numbers) { options.workers = workers }
      if let seconds = try Limits.value(Limits.frameTimeout, a) { options.frameTimeout = seconds }
      options.capOptions = Snapshot.capOptions
      options.exportLimits = try Limits.render(a, caps: exportCaps + [Limits.pixels])
      options.templateLimits = try Limits.template(a)
      if let scale = try a.number("scale", in: numbers) { options.scale = scale }
      if let host = a.value("host") { options.host = host == "localhost" ? "127.0.0.1" : host }
      let loopback = ["127.0.0.1", "::1"].contains(options.host)
      let studio: FlickStudio.Studio
      do {
        studio = try FlickStudio.Studio(options: options)
      } catch {
        throw CommandError(message: error.description, code: error.isInvalidInput ? .invalidInput : .environment)
      }
      if !loopback {
        log(
          "warning: the studio listens on \(quoted: options.host): anyone who can reach this address and knows "
            + "the token can read the opened folder's files")
      }
      StandardStream.writeOutputLine(studio.url)
      if !a.has("no-open") {
        // A browser that cannot be started is no failure: the URL is printed. xdg-open runs in a
        // session of its own: where it runs the browser in the foreground (its $BROWSER
        // fallback), the browser is the user's, and neither the 30 s wait ending nor the
        // studio's exit stops it, as they would a child in the studio's process groups (both
        // stop the group of `setsid`, which xdg-open has left). `--wait`, not `--fork`: a
        // `setsid` that returned at once could have its group stopped before its child left it.
        let url = studio.url
        Thread.detachNewThread {
          let opener = try? Subprocess(executable: "/usr/bin/env", arguments: ["setsid", "--wait", "xdg-open", url])
          _ = opener?.wait(timeout: 30)
        }
      }
      // SIGINT and SIGTERM end the process through Interruption (exit 130, children stopped).
      while true { pause() }
    }

    /// The folder to open and the templates to list from the positional arguments.
    ///
    /// Template paths are made absolute and standardised lexically (`.` and `..` removed), their
    /// last component never resolved: a symbolic link is opened under its own name, from its own
    /// folder, as `flick still LINK` loads it (its assets next to the link). Several templates
    /// open their deepest common folder, whatever their order.
    static func opened(_ positionals: [String]) throws -> (String, [String]?) {
      guard !positionals.isEmpty else { return (FileManager.default.currentDirectoryPath, nil) }
      var isFolder: ObjCBool = false
      if positionals.count == 1, FileManager.default.fileExists(atPath: positionals[0], isDirectory: &isFolder),
        isFolder.boolValue
      {
        return (positionals[0], nil)
      }
      var files: [[String]] = []
      for argument in positionals {
        // A path, or a bundled template's bare name, as every command taking a TEMPLATE finds it.
        let file = try Flick.templatePath(argument)
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isFolder), !isFolder.boolValue else {
          throw CommandError.usage("studio takes one FOLDER or TEMPLATE files; '\(quoted: argument)' is a folder")
        }
        // A Lottie file is found as render finds it (by its content); the studio opens templates.
        if LottieFile.isLottie(path: file) { throw lottieRefused(file) }
        files.append(lexical(file))
      }
      // The deepest folder that holds every file (each file's folder is its components but the last).
      var common = Array(files[0].dropLast())
      for file in files.dropFirst() {
        let parent = file.dropLast()
        var shared = 0
        while shared < min(common.count, parent.count), common[shared] == parent[shared] { shared += 1 }
        common = Array(common.prefix(shared))
      }
      // Opening / would offer every file of the machine to the page.
      guard !common.isEmpty else {
        throw CommandError.usage(
          "the TEMPLATE files share no folder but '/'; give templates that share a folder (or open a FOLDER)")
      }
      let folder = "/" + common.joined(separator: "/")
      return (folder, files.map { $0.dropFirst(common.count).joined(separator: "/") })
    }

    /// The components of `path` made absolute (against the current folder), with `.` and `..`
    /// removed lexically: no symbolic link is resolved.
    static func lexical(_ path: String) -> [String] {
      let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
      var out: [String] = []
      for component in PathText.components(absolute) where component != "." {
        if component == ".." {
          if !out.isEmpty { out.removeLast() }
        } else {
          out.append(component)
        }
      }
      return out
    }
  }
}
