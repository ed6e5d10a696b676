import FlickScene
import Foundation

extension Renderer {
  /// The bytes the picture at `path` takes once decoded (width × height × 4, read from its PNG,
  /// JPEG or WebP header without decoding), for memory estimates; 0 for an SVG (drawn as
  /// vectors) or a file whose header cannot be read in its first MiB (the render then reports it).
  package static func decodedImageBytes(path: String) -> Int {
    // ImageHeader reads the first MiB through the bounded reader (AssetFile: a FIFO does not
    // block the open, a file over the image cap is not read).
    guard !SVGStore.isSVG(path), let header = try? ImageHeader.read(path: path), header.width <= 1 << 20,
      header.height <= 1 << 20
    else { return 0 }
    return header.width * header.height * 4
  }

  /// The bytes one worker's document of the SVG picture at `path` holds for the images embedded
  /// in it (each decoded once, and the largest twice while it is copied), from the picture's
  /// check; 0 for a file that cannot be read or is refused (the render then reports it).
  package static func svgEmbeddedImageBytes(path: String) -> Int { SVGStore.embeddedImageBytes(path: path) }
}
