import FlickMotion

/// A reference to a picture file used as a layer's `contents` (PNG, JPEG, WebP or SVG).
///
/// The rasteriser decodes each file once and caches it; the size in points is the picture's
/// size in pixels (scale 1), or an SVG's intrinsic size. Templates resolve relative paths against
/// the template's folder.
public struct LayerImage: Sendable, Hashable {
  /// Absolute (or working-directory relative) path of a PNG, JPEG, WebP or SVG file.
  public var path: String
  /// A colour the picture is drawn in, as a template image (UIKit's `.alwaysTemplate` with a
  /// `tintColor`): the picture's alpha is a mask filled with this colour, its own colours are
  /// ignored; the tint's alpha multiplies. An SVG stays vector (the mask is drawn at the device
  /// scale). nil (the default) draws the picture's own colours.
  public var tint: Color?

  public init(path: String, tint: Color? = nil) {
    self.path = path
    self.tint = tint
  }
}
