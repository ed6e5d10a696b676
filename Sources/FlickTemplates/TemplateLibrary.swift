import FlickMotion
import Foundation

/// The folder of bundled templates (`Templates/`), so a bare name like `card-swap` works
/// wherever a template path is accepted.
///
/// The folder is found, in order: from the `FLICK_TEMPLATES` environment variable; then from
/// the executable's location, looking in each enclosing folder for `Templates/schema.json`
/// (a source checkout running `.build/debug/flick`) or `share/flick/Templates/schema.json`
/// (an install such as `/usr/local/bin/flick`).
package struct TemplateLibrary: Sendable, Equatable {
  /// The environment variable that overrides where bundled templates are.
  package static let environmentVariable = "FLICK_TEMPLATES"

  /// Absolute path of the templates folder.
  package var folder: String

  package init(folder: String) {
    self.folder = folder
  }

  /// Finds the bundled templates.
  ///
  /// - Parameters:
  ///   - environment: The process environment (for `FLICK_TEMPLATES`).
  ///   - executablePath: The running binary; nil uses the current process's.
  /// - Returns: The library, or nil when no templates folder is found.
  package static func locate(
    environment: [String: String] = ProcessInfo.processInfo.environment, executablePath: String? = nil
  ) -> TemplateLibrary? {
    if let override = environment[environmentVariable], !override.isEmpty {
      return isFolder(override) ? TemplateLibrary(folder: TemplateContext.canonical(override)) : nil
    }
    guard let executable = executablePath ?? Bundle.main.executablePath else { return nil }
    var dir = URL(fileURLWithPath: TemplateContext.canonical(executable)).deletingLastPathComponent()
    while true {
      for candidate in ["Templates", "share/flick/Templates"] {
        let folder = dir.appendingPathComponent(candidate)
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent("schema.json").path) {
          return TemplateLibrary(folder: folder.path)
        }
      }
      let parent = dir.deletingLastPathComponent()
      if parent.path == dir.path { return nil }
      dir = parent
    }
  }

  /// The names of the bundled templates (file names without `.json5`), sorted.
  package var names: [String] {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return files.filter { $0.hasSuffix(".json5") }.map { String($0.dropLast(6)) }.sorted()
  }

  /// The file of the bundled template `name`, if there is one.
  package func path(of name: String) -> String? {
    let path = (folder as NSString).appendingPathComponent(name + ".json5")
    return FileManager.default.fileExists(atPath: path) ? path : nil
  }

  /// The JSON Schema of the template format (`schema.json` in the folder).
  package var schemaPath: String { (folder as NSString).appendingPathComponent("schema.json") }

  /// What a template argument refers to: an existing file is used as is; otherwise a bare name
  /// (no `/`, no extension) is looked up among the bundled templates.
  ///
  /// - Returns: The path, or nil when neither exists.
  package static func resolve(_ argument: String, in library: TemplateLibrary?) -> String? {
    if FileManager.default.fileExists(atPath: argument) { return argument }
    guard !PathText.hasSeparator(argument), !argument.hasSuffix(".json5") else { return nil }
    return library?.path(of: argument)
  }

  private static func isFolder(_ path: String) -> Bool {
    var folder: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &folder) && folder.boolValue
  }
}
