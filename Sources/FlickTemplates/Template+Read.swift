import FlickMotion
import FlickScene
import Foundation

extension Template {
  /// The message for a template file the bounded reader (``FlickScene/AssetFile``) refused.
  package static func readError(_ cause: AssetFile.Problem.Cause, path: String, limits: TemplateLimits) -> TemplateError
  {
    let reason =
      switch cause {
      case .cannotOpen(errno: ENOENT): "no such file"
      case .notRegular(isFolder: true): "is a folder, not a template file"
      case .notRegular: "is not a regular file (a FIFO or a device), not a template file"
      case .tooLarge(let size):
        "the file is \(size) bytes, more than the \(ByteText.format(limits.maximumFileBytes)) "
          + "a template may be (--max-template-bytes or FLICK_MAX_TEMPLATE_BYTES raises the cap)"
      case .cannotOpen, .changed: "cannot read the file"
      }
    return TemplateError(file: path, path: "", message: reason)
  }
}
