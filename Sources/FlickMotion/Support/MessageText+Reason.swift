import Foundation

extension MessageText {
  /// What `error` says, for a message that quotes why something failed: its own words. A
  /// Foundation error (a file that cannot be created) and ``AtomicDestination/Failure`` give
  /// theirs through `localizedDescription`; Flick's own errors (`VideoError`, `BatchError`,
  /// `TemplateError`, …) say it in their `description`, where `localizedDescription` gives only
  /// "The operation could not be completed. (FlickVideo.VideoError error 9.)", naming the type.
  /// Every message that quotes a caught error's reason uses this rather than
  /// `localizedDescription`.
  package static func reason(_ error: any Error) -> String {
    if let described = error as? LocalizedError, let text = described.errorDescription { return text }
    let text = error.localizedDescription
    // Foundation's words for an error without its own: "… (Module.Type error N.)".
    let type = String(reflecting: Swift.type(of: error))
    guard text.contains("(" + type + " error ") else { return text }
    // Every error here describes itself (`description`, or its reflection when it has none).
    return String(describing: error)
  }
}
