import FlickScene
import Foundation

extension Renderer {
  /// The bytes the picture at `path` takes once decoded (width × height × 4, read from its PNG,
  /// JPEG or WebP header without decoding), for memory estimates; 0 for an SVG (drawn as
  /// vectors) or a file whose header cannot be read in its first MiB (the render then reports it).
  package static func decodedImageBytes(path: String) -> Int {
    guard !SVGStore.isSVG(path), let file = FileHandle(forReadingAtPath: path) else { return 0 }
    defer { try? file.close() }
    let head = [UInt8]((try? file.read(upToCount: 1 << 20)) ?? Data())
    guard let header = try? ImageHeader.parse(head), header.width <= 1 << 20, header.height <= 1 << 20 else { return 0 }
    return header.width * header.height * 4
  }
}
