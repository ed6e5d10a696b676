internal import CPango
import FlickMotion
import Foundation

/// Pango's functions (``CPango``'s `flick_pango_load()`), loaded by the first use: the text
/// thread of a still, the first text a template's check or a frame lays out. A process that lays
/// out no text never maps Pango, HarfBuzz, FriBidi or GIO.
enum Pango {
  /// Why Pango cannot be loaded, or nil when it is (the first use loads it, on any thread).
  static let failure: String? = {
    var error: UnsafePointer<CChar>?
    guard flick_pango_load(&error) == nil else { return nil }
    return error.map { String(cString: $0) } ?? "unknown reason"
  }()

  /// Throws, naming the text layer `layerID` when there is one, when Pango cannot be loaded: what
  /// every path that lays out text checks first (a template's resource check and text measure,
  /// drawing a text layer, the glyph check).
  static func require(for layerID: String?) throws(RasterError) {
    if let failure { throw .textUnavailable(layerID: layerID, reason: failure) }
  }

  /// Whether fontconfig's default configuration has been read (`FcInit`, about 24 M
  /// instructions, most of them its XML files): once per process, by the first thread to ask
  /// (a still's text helper asks while the template loads), the others waiting for that read.
  /// Pango's functions are handed out only after it, so that no font map starts a second read
  /// of its own (two threads in `FcInit` at once each parse the configuration).
  /// The configuration gets ``FontconfigPin``'s rules after its own.
  static let fontconfig: Bool = FcInit() != 0 && FontconfigPin.apply(to: nil)

  /// The functions. Text reaches them only after ``require(for:)``; a use that did not check
  /// (a fault in Flick) stops the process with the loader's reason and exit status 127, as the
  /// dynamic loader does for a library missing at start.
  static let api: flick_pango_symbols = {
    guard failure == nil, let functions = flick_pango_load(nil) else {
      StandardStream.writeError("flick: cannot lay out text: \(escaped: failure ?? "unknown reason")\n")
      _exit(127)
    }
    _ = fontconfig
    return functions.pointee
  }()
}
