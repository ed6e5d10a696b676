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
  /// The canonical absolute path.
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
  }

  let state = Locked(State())

  init(name: String, path: String, folder: String) {
    self.name = name
    self.path = path
    self.folder = folder
  }

  /// The current revision, compiled template (last good) and error.
  var snapshot: (revision: Int, template: Template?, error: TemplateError?, assignments: [String]) {
    state.withLock { ($0.revision, $0.template, $0.error, $0.assignments) }
  }

  /// Compiles the file with the current parameters and bumps the revision.
  ///
  /// - Returns: The error when it does not compile (the last good template stays).
  @discardableResult
  func reload() -> TemplateError? {
    let assignments = state.withLock { $0.assignments }
    let result = Result { () throws(TemplateError) in try compile(assignments) }
    return state.withLock { s in
      s.revision += 1
      s.variants = [:]
      switch result {
      case .success(let template):
        s.template = template
        s.error = nil
      case .failure(let error):
        s.error = error
      }
      return s.error
    }
  }

  /// Replaces the current parameters after checking that the template compiles with them
  /// (the same checks and messages as `--set`); on success the template is recompiled.
  func setParameters(_ assignments: [String]) throws(TemplateError) {
    let template = try compile(assignments)
    state.withLock { s in
      s.assignments = assignments
      s.revision += 1
      s.variants = [:]
      s.template = template
      s.error = nil
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
  func compile(_ assignments: [String]) throws(TemplateError) -> Template {
    var values = ParameterValues()
    for assignment in assignments { try values.set(assignment, folder: folder) }
    var template: Template
    do {
      template = try Template.load(path: path, parameters: values, options: TemplateOptions())
    } catch {
      throw renamed(error)
    }
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

  /// Every file the compiled template reads: itself, its fonts, pictures and Lottie files.
  var files: [String] {
    guard let template = state.withLock({ $0.template }) else { return [path] }
    var out = [path] + template.scene.fontFiles
    var stack = template.scene.layers
    while let layer = stack.popLast() {
      if let image = layer.contents?.path { out.append(image) }
      if let lottie = layer.lottie?.path { out.append(lottie) }
      if let mask = layer.mask { stack.append(mask) }
      stack.append(contentsOf: layer.sublayers)
    }
    return out
  }
}
