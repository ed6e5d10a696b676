import FlickMotion
import FlickScene
import Foundation

/// Values for a template's parameters, as a user gives them: `--set name=value` (text, typed by
/// the parameter's declaration) and `--params file.json5` (an object of typed JSON5 values).
///
/// Later values win: give params files first, then `--set` overrides. Nothing is checked until
/// ``Template/load(path:parameters:options:)`` knows the declarations; then unknown names and
/// ill-typed values are ``TemplateError``s naming the source (`--set accent=red` or the params
/// file with line and column).
public struct ParameterValues: Sendable, Equatable {
  /// The largest params file read, in bytes: 16 MiB, for `--params` and for the params and data
  /// files a batch manifest names (``FlickBatch``'s `ManifestLimits.dataBytes`). Parameter values
  /// are far smaller; more is a mistake or an attack, refused before a byte is read.
  package static let maximumFileBytes = 16 << 20

  enum Source: Sendable, Equatable {
    /// `--set name=text`.
    case text(String)
    /// A value from a params file, with that file's path.
    case json(JSON5Value, file: String)
  }

  struct Entry: Sendable, Equatable {
    var name: String
    var source: Source
    /// Folder relative file paths in this value resolve against.
    var folder: String
    /// The JSON path messages give the value (`renders[0].variants[1].title`); nil: the name.
    var path: String?
    /// Where the name is written (a params file's key, a CSV header field), for an unknown name.
    var key: Site?
    /// Where a text value is written when it comes from a file (a CSV cell), not `--set`.
    var cell: Site?
  }

  /// A place in a file: the file as messages name it, a 1-based line and column.
  package struct Site: Sendable, Equatable {
    var file: String
    var line: Int
    var column: Int

    package init(file: String, line: Int, column: Int) {
      self.file = file
      self.line = line
      self.column = column
    }
  }

  private(set) var entries: [Entry] = []

  public init() {}

  /// Whether no value was given.
  public var isEmpty: Bool { entries.isEmpty }

  /// The names given, in order (repeated names appear once per value).
  public var names: [String] { entries.map(\.name) }

  /// The values given as JSON5 (a params file's members, a manifest's or data file's), with
  /// their names, in order; values given as text (`--set`, a CSV cell) are left out.
  package var jsonValues: [(name: String, value: JSON5Value)] {
    entries.compactMap { e in
      guard case .json(let value, _) = e.source else { return nil }
      return (e.name, value)
    }
  }

  /// Sets `name` from text, as `--set name=text` does; relative file paths are relative to the
  /// current directory.
  public mutating func set(_ name: String, text: String) {
    set(name, text: text, folder: FileManager.default.currentDirectoryPath)
  }

  /// Sets `name` from text typed as `--set` types it, with relative file paths relative to
  /// `folder` (a batch data file's folder).
  package mutating func set(_ name: String, text: String, folder: String) {
    entries.append(Entry(name: name, source: .text(text), folder: folder))
  }

  /// Sets `name` from text typed as `--set` types it, written in a file (a CSV data file's
  /// `cell`, under the header field at `key`): errors point there instead of at `--set`.
  package mutating func set(_ name: String, text: String, folder: String, cell: Site, key: Site) {
    entries.append(Entry(name: name, source: .text(text), folder: folder, key: key, cell: cell))
  }

  /// Parses one `--set` argument, `name=value`.
  ///
  /// - Throws: ``TemplateError`` when there is no `=` or the name is empty.
  public mutating func set(_ assignment: String) throws(TemplateError) {
    try set(assignment, folder: FileManager.default.currentDirectoryPath)
  }

  /// Parses one `--set` argument, `name=value`, with relative file paths relative to `folder`
  /// (`flick studio`: its opened folder, whatever the process's current directory).
  ///
  /// - Throws: ``TemplateError`` when there is no `=` or the name is empty.
  package mutating func set(_ assignment: String, folder: String) throws(TemplateError) {
    guard let eq = assignment.firstIndex(of: "=") else {
      throw TemplateError(
        file: "--set \(quoted: assignment)", path: "", message: "expected NAME=VALUE, e.g. --set title=\"Hello\"")
    }
    let name = String(assignment[..<eq]).trimmingCharacters(in: .whitespaces)
    guard !name.isEmpty else {
      throw TemplateError(
        file: "--set \(quoted: assignment)", path: "", message: "the parameter name before '=' is empty")
    }
    set(name, text: String(assignment[assignment.index(after: eq)...]), folder: folder)
  }

  /// Sets `name` to a typed JSON5 value read from `file` (a batch manifest or a data file), as
  /// a params file member does; relative file paths in it are relative to `file`'s folder and
  /// errors point at the value's line and column in `file`.
  public mutating func set(_ name: String, value: JSON5Value, file: String) {
    let folder = URL(fileURLWithPath: file).deletingLastPathComponent().path
    entries.append(Entry(name: name, source: .json(value, file: file), folder: folder))
  }

  /// ``set(_:value:file:)`` for the member `member` of an object at JSON path `path` in `file`
  /// (a batch manifest's variant, a JSON data file's row): errors name the member's path, and an
  /// unknown name points at its key.
  package mutating func set(member: JSON5Value.Member, file: String, path: String) {
    let folder = URL(fileURLWithPath: file).deletingLastPathComponent().path
    let key = Site(file: file, line: member.line, column: member.column)
    let path = path.isEmpty ? member.key : "\(path).\(member.key)"
    entries.append(
      Entry(name: member.key, source: .json(member.value, file: file), folder: folder, path: path, key: key))
  }

  /// Adds every member of the JSON5 object in the file at `path`; relative file paths in it are
  /// relative to the file's folder.
  ///
  /// - Throws: ``TemplateError`` if the file cannot be read, is not JSON5 or not an object.
  public mutating func load(file path: String) throws(TemplateError) {
    let data = Data(try Self.readFile(path))
    guard let text = String(data: data, encoding: .utf8) else {
      let at = SourceText.firstInvalidUTF8(in: data) ?? (0, 0)
      throw TemplateError(
        file: path, path: "", line: at.line, column: at.column,
        message: "the params file is not UTF-8 text (the first byte that is not UTF-8 is here)")
    }
    try load(text: text, file: path)
  }

  /// The bytes of the params file at `path`, read once through ``FlickScene/AssetFile`` (opened
  /// non-blocking, checked on the open descriptor: a regular file of at most
  /// ``maximumFileBytes``).
  ///
  /// - Throws: ``TemplateError`` naming the file and why (no such file, a folder, a FIFO, the cap).
  package static func readFile(_ path: String) throws(TemplateError) -> [UInt8] {
    do {
      return try AssetFile.read(path, maximumBytes: maximumFileBytes, kind: "a params file")
    } catch {
      let reason =
        switch error.cause {
        case .cannotOpen(errno: ENOENT): "no such params file"
        case .notRegular(isFolder: true): "is a folder, not a params file"
        case .notRegular: "is not a regular file (a FIFO or a device), not a params file"
        case .tooLarge(let size):
          "the params file is \(size) bytes, more than the \(maximumFileBytes >> 20) MiB a params file may be"
        default: "cannot read the params file"
        }
      throw TemplateError(file: path, path: "", message: reason)
    }
  }

  /// Adds every member of a JSON5 object given as text; `file` names it in messages and gives
  /// the folder relative paths resolve against.
  public mutating func load(text: String, file: String) throws(TemplateError) {
    try load(text: text, file: file, showingInput: true)
  }

  /// ``load(text:file:)``, with `showingInput` false for a file whose bytes must never appear in
  /// a message (a params file a batch manifest names): errors then say where and what was
  /// expected, without quoting what was found.
  package mutating func load(text: String, file: String, showingInput: Bool) throws(TemplateError) {
    let root: JSON5Value
    do {
      root = try JSON5Parser.parse(text)
    } catch {
      throw TemplateError(
        file: file, path: "", line: error.line, column: error.column,
        message: showingInput ? error.message : error.plainMessage)
    }
    guard case .object(let members) = root.kind else {
      let node = TemplateNode(value: root, path: "", file: file)
      let what = "an object of parameter values, like { title: \"Hello\" }"
      throw showingInput
        ? node.expected(what) : node.error("expected \(quoted: what), found \(quoted: root.kindDescription)")
    }
    let folder = URL(fileURLWithPath: file).deletingLastPathComponent().path
    for m in members {
      let key = Site(file: file, line: m.line, column: m.column)
      entries.append(Entry(name: m.key, source: .json(m.value, file: file), folder: folder, key: key))
    }
  }
}
