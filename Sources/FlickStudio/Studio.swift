import FlickMotion
import FlickRaster
import FlickTemplates
import FlickVideo
import Foundation

/// `flick studio`: a local web app over the opened folder's templates. It serves the page, the
/// JSON API (docs/studio.md, "Server"), frames rendered by warm workers and Server-Sent Events
/// on every change of a file a template reads.
///
///     let studio = try Studio(options: .init(folder: "Templates"))
///     print(studio.url)   // http://127.0.0.1:PORT/?token=…
///     studio.stop()
package final class Studio: Sendable {
  /// What to open and how to listen.
  package struct Options: Sendable {
    /// The opened folder.
    package var folder: String
    /// Templates to list (relative names), or nil for every template of the folder.
    package var templates: [String]?
    /// The numeric address to listen on.
    package var host = "127.0.0.1"
    /// The port (0: any free port).
    package var port = 0
    /// The default pixels per canvas point of frames (`scale=` overrides it per request).
    package var scale = 1.0
    /// Render workers, each with warm renderers.
    package var workers = 2
    /// How long one frame may draw before its request is answered without it (503), in seconds
    /// (``RenderPool``; `flick studio --frame-timeout`).
    package var frameTimeout = 120.0
    /// The caps an export is checked against before its first frame, as `flick render` checks a
    /// render (`flick studio --max-frames`, `--max-work`, `--max-memory` and their variables).
    package var exportLimits = RenderLimits()
    /// Every cap's option name (`timeout`, `max-pixels`, …; the command line's caps): what an
    /// accept reads as a limit, not a parameter, where an older Flick recorded one among the
    /// goldens' parameters (``FlickSnapshot/ReportAcceptance``).
    package var capOptions: [String] = []
    /// The caps every template load checks, as `flick still` checks them (`flick studio
    /// --max-template-bytes`, `--max-pixels`, `--max-text` and their variables).
    package var templateLimits = TemplateLimits()

    package init(folder: String, templates: [String]? = nil) {
      self.folder = folder
      self.templates = templates
    }
  }

  package let options: Options
  package let workspace: StudioWorkspace
  /// The session token (32 hex digits from /dev/urandom).
  package let token: String
  let page: StudioPage
  let pool: RenderPool
  let sessions = Locked<[String: TemplateSession]>([:])
  let events = Locked<[EventStream]>([])
  let jobs = Locked(0)
  /// The template list as last announced (``templatesChanged(_:)``).
  let listed = Locked<[TemplatesBody.Entry]>([])
  /// The export running now (its job number and output, as the page names it), if any: one at a
  /// time, since each takes every core, and two to one output would share its temporary files
  /// (named after the process, not the export).
  let runningExport = Locked<(job: Int, output: String)?>(nil)
  /// Where the answers that read the folder (`/api/files`, `/api/templates`, `/api/file`, the
  /// comparisons) run: ``listingLanes`` at a time, the others waiting in its queue without a
  /// thread. On Dispatch's global queue, 80 slow listings at once held its threads and
  /// `/api/params` waited minutes behind them.
  let listings: OperationQueue = {
    let queue = OperationQueue()
    queue.name = "flick.studio.listings"
    queue.maxConcurrentOperationCount = Studio.listingLanes
    return queue
  }()
  /// How many folder-reading answers run at once.
  static let listingLanes = 2
  private let server = Locked<HTTPServer?>(nil)
  private let watcher = Locked<FileWatcher?>(nil)
  private let stopped = Locked(false)

  /// Opens the folder, starts the workers, the file watcher and the server.
  ///
  /// - Throws: ``StudioError``.
  package init(options: Options) throws(StudioError) {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: options.folder, isDirectory: &isFolder), isFolder.boolValue else {
      throw .cannotOpen(path: options.folder, reason: "not a folder")
    }
    self.options = options
    workspace = StudioWorkspace(folder: options.folder, templates: options.templates)
    token = try Self.randomToken()
    page = try StudioPage.load()
    pool = RenderPool(workers: options.workers, frameTimeout: options.frameTimeout)
    // Edited font files are registered again from private copies (FontRegistry): gone on SIGINT too.
    Cleanup.shared.add(folder: FontRegistry.copiesFolder)
    let watcher = try FileWatcher { [weak self] changed in self?.filesChanged(changed) }
    self.watcher.withLock { $0 = watcher }
    watcher.watch(workspace.folders())
    // The opened folder removed and made again (a checkout of another branch made it anew) is
    // watched anew: the watcher reports it when it is back, and `filesChanged` watches its folders.
    watcher.keep(root: workspace.folder)
    listed.withLock { $0 = templateList() }
    // The security checks run on each request's head, before its body is read, and again on
    // the whole request (`handle`).
    let server = try HTTPServer(
      host: options.host, port: options.port, threads: 2,
      screen: { [weak self] head in self?.refusal(head) }
    ) { [weak self] request, reply in
      guard let self else { return reply(StudioResponse.stopping) }
      self.handle(request, reply: reply)
    }
    self.server.withLock { $0 = server }
    startPings()
  }

  /// The port listened on.
  package var port: Int { server.withLock { $0 }?.port ?? 0 }

  /// The URL to open: `http://HOST:PORT/?token=TOKEN` (IPv6 hosts in brackets).
  package var url: String {
    let host = options.host.contains(":") ? "[\(options.host)]" : options.host
    return "http://\(host):\(port)/?token=\(token)"
  }

  /// Stops the server, the workers and the watcher (event streams end). Idempotent.
  package func stop() {
    guard
      stopped.withLock({ s -> Bool in
        defer { s = true }; return !s
      })
    else { return }
    for stream in events.withLock({ $0 }) { stream.close() }
    pool.stop()
    server.withLock { $0 }?.stop()
    server.withLock { $0 = nil }
    watcher.withLock { $0 }?.stop()
    watcher.withLock { $0 = nil }
  }

  deinit { stop() }

  /// 32 hexadecimal digits from /dev/urandom.
  static func randomToken() throws(StudioError) -> String {
    guard let handle = FileHandle(forReadingAtPath: "/dev/urandom"),
      let bytes = try? handle.read(upToCount: 16), bytes.count == 16
    else { throw .cannotOpen(path: "/dev/urandom", reason: "cannot read random bytes for the session token") }
    try? handle.close()
    return bytes.map { String(format: "%02x", $0) }.joined()
  }

  // MARK: - Sessions and events

  /// The session of the template `name` (relative), compiled on first use. Sessions are kept by
  /// the template's resolved path relative to the folder, not by the name as asked: `a.json5`,
  /// `./a.json5` and `sub/../a.json5` are one session, not one compiled (and recompiled at every
  /// change of its files) per spelling. The session remembers each name it was asked for: its
  /// events go out under every one of them (a page that opened `link.json5`, a symbolic link to
  /// `real.json5`, follows its edits).
  ///
  /// A template named on the command line, asked for by that name, is loaded from that path as
  /// `flick still` loads it: a symbolic link under its own name, its assets next to it, even
  /// when it leads out of the folder (the user named it).
  func session(_ name: String) -> Result<TemplateSession, StudioWorkspace.Refusal> {
    let path: String, key: String
    if let explicit = workspace.explicit, explicit.contains(name) {
      (path, key) = (workspace.folder + "/" + name, name)
    } else {
      switch workspace.resolve(name) {
      case .success(let p): (path, key) = (p, workspace.relative(p))
      case .failure(let refusal): return .failure(refusal)
      }
      if let explicit = workspace.explicit, !explicit.contains(key) {
        return .failure(.forbidden("\(quoted: name) is not one of the templates opened"))
      }
    }
    guard path.hasSuffix(".json5") || path.hasSuffix(".json") else {
      return .failure(.forbidden("\(quoted: name) is not a template (.json5)"))
    }
    if let known = sessions.withLock({ $0[key] }) {
      known.remember(name)
      return .success(known)
    }
    let made = TemplateSession(name: key, path: path, folder: workspace.folder, limits: options.templateLimits)
    made.reload()
    let session = sessions.withLock { s -> TemplateSession in
      if let raced = s[key] { return raced }
      s[key] = made
      return made
    }
    session.remember(name)
    watchFiles(of: session)
    return .success(session)
  }

  /// Watches the folders of every file `session` reads.
  func watchFiles(of session: TemplateSession) {
    let folders = Set(session.files.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path })
    watcher.withLock { $0 }?.watch(folders)
  }

  /// Sends an event to every open stream.
  func broadcast(_ name: String, _ payload: some Encodable) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let text = (try? encoder.encode(payload)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    for stream in openStreams() { stream.send(event: name, data: text) }
  }

  /// The event streams still open; closed ones are forgotten here, so that a page that keeps
  /// opening and dropping streams while no file changes does not pile them up.
  private func openStreams() -> [EventStream] {
    events.withLock { list -> [EventStream] in
      list.removeAll { $0.isClosed }
      return list
    }
  }

  /// A burst of changed files: the templates they concern are recompiled and announced.
  ///
  /// Those are the templates whose last load read one of them (``TemplateSession/files``: the
  /// template, its pictures, SVG outlines, fonts and Lottie files), and every template that does
  /// not compile now (the file it misses may just have been added). New folders inside the
  /// opened folder (the opened folder itself too, made again after it was removed) are watched
  /// from now on, and a changed template list is announced.
  func filesChanged(_ changed: Set<String>) {
    let relevant = changed.filter { !URL(fileURLWithPath: $0).lastPathComponent.hasPrefix(".") }
    guard !relevant.isEmpty else { return }
    let added = relevant.filter { path in
      var isFolder: ObjCBool = false
      return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
        && PathText.isInside(path, folder: workspace.folder)
        && (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) == nil
    }
    if !added.isEmpty { watcher.withLock { $0 }?.watch(Set(added.flatMap { workspace.folders(under: $0) })) }
    pool.dropWarmCaches()
    templatesChanged(relevant)
    for session in sessions.withLock({ Array($0.values) }) {
      let files = Set(session.files)
      let failing = session.snapshot.error != nil
      let affected = relevant.contains { path in
        if failing { return true }
        let canonical = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return files.contains(path) || files.contains(canonical)
      }
      guard affected else { continue }
      announce(session, error: session.reload())
      watchFiles(of: session)
    }
  }

  /// Pushes `reload` or `error` for the session's current revision, once under each of its
  /// names (``TemplateSession/names``).
  func announce(_ session: TemplateSession, error: TemplateError?) {
    let revision = session.snapshot.revision
    for name in session.names {
      if let error {
        broadcast("error", ErrorEvent(template: name, revision: revision, error: diagnostic(error)))
      } else {
        broadcast("reload", ReloadEvent(template: name, revision: revision))
      }
    }
  }

  /// A comment line every 15 s on every stream (keeps proxies and the browser from timing out).
  private func startPings() {
    let thread = Thread { [weak self] in
      while true {
        for _ in 0..<150 {
          Thread.sleep(forTimeInterval: 0.1)
          guard let self, !self.stopped.withLock({ $0 }) else { return }
        }
        guard let self else { return }
        for stream in self.openStreams() { stream.send(raw: ": ping\n\n") }
      }
    }
    thread.name = "flick.studio.ping"
    thread.start()
  }
}
