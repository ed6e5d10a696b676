/// A reference to a picture file used as a layer's `contents` (PNG, JPEG or WebP).
///
/// The rasteriser decodes each file once and caches it; the size in points is the picture's
/// size in pixels (scale 1). Templates resolve relative paths against the template's folder.
public struct LayerImage: Sendable, Hashable {
  /// Absolute (or working-directory relative) path of a PNG, JPEG or WebP file.
  public var path: String

  public init(path: String) {
    self.path = path
  }
}
