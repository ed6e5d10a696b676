import FlickMotion
/// Why drawing, encoding or decoding a picture failed.
public enum RasterError: Error, Equatable, CustomStringConvertible {
  /// Cairo reported a failure status (its own description is kept).
  case cairo(String)
  /// A picture file could not be read or decoded.
  case unreadableImage(path: String, reason: String)
  /// A picture file could not be written.
  case unwritableImage(path: String, reason: String)
  /// The requested size is not drawable (zero, negative or too large).
  case invalidSize(width: Int, height: Int)
  /// A text layer names a font family that is not installed; `fallback` is the family
  /// fontconfig would have substituted.
  case missingFontFamily(family: String, layerID: String, fallback: String)
  /// A font file could not be read or is not a font fontconfig understands.
  case unreadableFont(path: String, reason: String)
  /// A Lottie file could not be read, uses features rlottie does not draw, or rlottie cannot
  /// load it.
  case unreadableLottie(path: String, reason: String)
  /// Text (of layer `layerID`, when known) cannot be laid out: Pango, loaded on first use,
  /// cannot be loaded, for the loader's `reason`.
  case textUnavailable(layerID: String?, reason: String)
  /// Drawing layer `id` (the innermost one being drawn) failed with `error`.
  indirect case layer(id: String, error: RasterError)
  /// The tree comes from a scene that ``FlickScene/Scene/validate()`` refuses (an unknown layer
  /// id, a target that is not a finite number, …): its message, as `validate()` gives it.
  case invalidScene(String)

  /// This error as drawing layer `id` reports it: wrapped in ``layer(id:error:)`` unless it names
  /// a layer already.
  package func naming(_ id: String) -> RasterError {
    switch self {
    case .layer, .missingFontFamily, .textUnavailable: return self
    default: return .layer(id: id, error: self)
    }
  }

  public var description: String {
    switch self {
    case .cairo(let s): return "cairo: \(quoted: s)"
    case .unreadableImage(let path, let reason): return "cannot read image \(quoted: path): \(escaped: reason)"
    case .unwritableImage(let path, let reason): return "cannot write image \(quoted: path): \(escaped: reason)"
    case .invalidSize(let w, let h): return "invalid frame size \(w)×\(h) (each side must be 1…16384)"
    case .missingFontFamily(let family, let layerID, let fallback):
      return "layer '\(quoted: layerID)': font family '\(quoted: family)' is not installed (it would fall back "
        + "to '\(quoted: fallback)'); "
        + "install it or choose an installed family (fc-list : family)"
    case .unreadableFont(let path, let reason): return "cannot load font file \(quoted: path): \(escaped: reason)"
    case .unreadableLottie(let path, let reason): return "Lottie file \(quoted: path): \(escaped: reason)"
    case .textUnavailable(let layerID, let reason):
      let message = "text needs Pango, which cannot be loaded: \(escaped: reason)"
      return layerID.map { "layer '\(quoted: $0)': " + message } ?? message
    case .layer(let id, let error): return "layer '\(quoted: id)': \(escaped: error.description)"
    case .invalidScene(let problem): return "the scene: \(escaped: problem)"
    }
  }
}
