import FlickBatch
import FlickMotion
import FlickRaster
import FlickScene
import FlickTemplates
import Foundation

/// One template of the opened folder as the studio keeps it: compiled with its current
/// parameters, recompiled on every change of a file it reads, with a revision that counts the
/// compiles and the last good compile kept while the file does not compile.
package final class TemplateSession: Sendable {
  /// The template's path relative to the opened folder (what requests and messages name).
  package let name: String
  /// The absolute path it is loaded from: canonical, or a template named on the command line as
  /// named there (a symbolic link loads as `flick still LINK` loads it, its assets next to it).
  package let path: String
  /// The opened folder: what relative paths of parameter values (`--set`) are relative to.
  package let folder: String

  struct State {
    var revision = 0
    var template: Template?
    var error: TemplateError?
    /// The current parameter assignments (`NAME=VALUE`, as `--set` takes them), in order.
    var assignments: [String] = []
    /// Compiles with other parameters (`set=` of a frame request), by their assignments, for
    /// the current revision only.
    var variants: [[String]: Template] = [:]
    /// Every file the last load with the current parameters read: the template and what the
    /// loader recorded in its ``FlickTemplates/AssetLog`` (pictures, SVG outlines, fonts, Lottie
    /// files), canonical. A load that fails records what it read before it stopped.
    var files: [String] = []
    /// The names the session was asked for (``name`` first): each gets the session's events.
    var names: [String] = []
  }

  let state = Locked(State())
  /// Called with the assignments by every compile once it has read the template (tests hold a
  /// compile there).
  let onCompile: (@Sendable ([String]) -> Void)?

  /// The most names kept for one session (``remember(_:)``): the oldest other than ``name`` goes.
  static let maximumNames = 16

  /// The caps every load checks (`flick studio --max-template-bytes`, … and their variables).
  let limits: TemplateLimits

  /// What a message about an asset outside the template's folder says: the studio has no
  /// `--allow-outside-assets`.
  static let outsideRemedy =
    "flick studio reads no asset outside the template's folder: copy the file into it "
    + "(flick still and flick render take --allow-outside-assets)"

  init(
    name: String, path: String, folder: String, limits: TemplateLimits = TemplateLimits(),
    onCompile: (@Sendable ([String]) -> Void)? = nil
  ) {
    self.name = name
    self.limits = limits
    self.path = path
    self.folder = folder
    self.onCompile = onCompile
    state.withLock { s in
      s.files = [path]
      s.names = [name]
    }
  }

  /// Every name a page may know the session by: ``name`` and each other spelling it was asked
  /// for (a symbolic link's name, `./a.json5`), at most ``maximumNames``.
  var names: [String] { state.withLock { $0.names } }

  /// Records `asked` as a name of this session.
  func remember(_ asked: String) {
    state.withLock { s in
      guard !s.names.contains(asked) else { return }
      s.names.append(asked)
      if s.names.count > Self.maximumNames { s.names.remove(at: 1) }
    }
  }

  /// The current revision, compiled template (last good) and error.
  var snapshot: (revision: Int, template: Template?, error: TemplateError?, assignments: [String]) {
    state.withLock { ($0.revision, $0.template, $0.error, $0.assignments) }
  }

  /// Compiles the file with the current parameters and bumps the revision.
  ///
  /// A compile stores its result only when nothing else stored one while it ran; otherwise it
  /// compiles again, with the parameters in effect then: a reload that ran beside
  /// ``setParameters(_:)`` never puts back the parameters it started with.
  ///
  /// - Returns: The error when it does not compile (the last good template stays).
  @discardableResult
  func reload() -> TemplateError? {
    while true {
      let (assignments, revision) = state.withLock { ($0.assignments, $0.revision) }
      let log = AssetLog()
      let result = Result { () throws(TemplateError) in try compile(assignments, log: log) }
      let stored = state.withLock { s -> TemplateError?? in
        guard s.revision == revision else { return nil }
        s.revision += 1
        s.variants = [:]
        s.files = read(log)
        switch result {
        case .success(let template):
          s.template = template
          s.error = nil
        case .failure(let error):
          s.error = error
        }
        return .some(s.error)
      }
      if let stored { return stored }
    }
  }

  /// Replaces the current parameters after checking that the template compiles with them
  /// (the same checks and messages as `--set`); on success the template is recompiled. When a
  /// reload stored its compile meanwhile (the file changed), it compiles again.
  func setParameters(_ assignments: [String]) throws(TemplateError) {
    while true {
      let revision = state.withLock { $0.revision }
      let log = AssetLog()
      let template = try compile(assignments, log: log)
      let stored = state.withLock { s -> Bool in
        guard s.revision == revision else { return false }
        s.assignments = assignments
        s.revision += 1
        s.variants = [:]
        s.template = template
        s.error = nil
        s.files = read(log)
        return true
      }
      if stored { return }
    }
  }

  /// The template for a request: the current one (nil `assignments`), or compiled with the
  /// `--set` assignments given instead of the current parameters (kept for this revision).
  func template(assignments: [String]?) throws(TemplateError) -> Template {
    let (current, error, revision, known) = state.withLock { s in
      (s.template, s.error, s.revision, assignments.flatMap { s.variants[$0] })
    }
    guard let assignments else {
      if let current { return current }
      throw error ?? TemplateError(file: name, path: "", message: "the template has not been compiled")
    }
    if let known { return known }
    let compiled = try compile(assignments)
    state.withLock { s in
      guard s.revision == revision else { return }
      if s.variants.count >= 16 { s.variants = [:] }
      s.variants[assignments] = compiled
    }
    return compiled
  }

  /// Loads the template as `flick still NAME --set …` does from the opened folder: the same
  /// parameter parsing (file paths relative to the opened folder), compile and draw check, with
  /// messages naming the file as `NAME`.
  /// `log` records the files the load reads.
  func compile(_ assignments: [String], log: AssetLog? = nil) throws(TemplateError) -> Template {
    var values = ParameterValues()
    for assignment in assignments { try values.set(assignment, folder: folder) }
    var template: Template
    var options = TemplateOptions(limits: limits)
    options.assetLog = log
    options.outsideRemedy = Self.outsideRemedy
    do {
      template = try Template.load(path: path, parameters: values, options: options)
    } catch {
      throw renamed(error)
    }
    onCompile?(assignments)
    do {
      try template.checkDrawable()
    } catch {
      let site = template.site(of: error)?.error(error.description)
      throw renamed(site ?? TemplateError(file: path, path: "", message: error.description))
    }
    return template
  }

  /// `error` naming the file by its relative name (as a command run in the opened folder does).
  private func renamed(_ error: TemplateError) -> TemplateError {
    var e = error
    if e.file == path { e.file = name }
    return e
  }

  /// The files a load that recorded `log` read: the template (and, when it is a symbolic link,
  /// the file it leads to) and every file the loader resolved.
  private func read(_ log: AssetLog) -> [String] {
    let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    return (target == path ? [path] : [path, target]) + log.paths
  }

  /// Every file the last load read (``State/files``): what the studio watches.
  var files: [String] { state.withLock { $0.files } }
}
