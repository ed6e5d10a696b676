import FlickMotion

/// The font files one template load has read, and their families, by canonical path: a file
/// named many times (in `fonts`, by `font` parameters, their defaults and `--set` values) is read
/// once per load, where each name read it again (an 11 MB font listed 200 times was 3 s of
/// reading); and how many different files the template uses, against
/// ``TemplateLimits/maximumFontFiles``.
///
/// ``Template/decode(_:file:defaultName:parameters:options:baseFolder:)`` makes one per load
/// (never one for longer: a file may change between loads), shared by reference by every node of
/// the document through ``TemplateContext/fontReads``.
final class TemplateFontFiles: Sendable {
  private let files = Locked<[String: [String]]>([:])

  /// The families read from the file at `path` in this load, if it was read.
  func families(at path: String) -> [String]? { files.withLock { $0[path] } }

  /// How many different files have been read.
  var count: Int { files.withLock { $0.count } }

  /// Records the families read from the file at `path`.
  func record(_ path: String, families: [String]) { files.withLock { $0[path] = families } }
}
