import FlickBatch
import FlickMotion
import FlickRaster
import FlickTemplates

extension Flick {
  /// The template this run loaded (one per process), so that an error drawing one of its layers
  /// later (exit 3) is located at the layer: ``located(_:)``.
  static let loaded = Locked<Template?>(nil)

  /// Runs the load-time draw check (``FlickTemplates/Template/checkDrawable()``, shared with
  /// `flick plan` and `flick run`): a failure is a located invalid-input error (exit 2) at the
  /// member that names the font or file, so `flick info` says OK only for a template that can
  /// draw, and a render fails before its first frame rather than with exit 3.
  static func checkDrawable(_ template: Template) throws(CommandError) {
    loaded.withLock { $0 = template }
    do {
      try template.checkDrawable()
    } catch {
      throw CommandError(message: template.located(error), code: .invalidInput)
    }
  }

  /// `error` located in the template this run loaded, when there is one.
  static func located(_ error: RasterError) -> String {
    loaded.withLock { $0 }.map { $0.located(error) } ?? error.description
  }
}
