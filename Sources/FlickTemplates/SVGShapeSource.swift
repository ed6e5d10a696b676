import FlickMotion
import FlickScene
import Foundation

/// The outline of an SVG file as one ``FlickScene/ShapePath``: the `svg` shape source
/// (`path: { svg: "icon.svg" }`), so a shape layer fills, strokes and trims an icon's geometry
/// with its own colours and animations.
///
/// librsvg draws SVG but does not hand out its geometry, so the file is read here by a small,
/// bounded scanner of SVG's XML (no DTD, no entities beyond XML's five and character
/// references, no external file). What it takes:
/// - geometry: `<path d>` (through ``FlickScene/ShapePath/init(svgPathData:)``), `<rect>` (with
///   `rx`/`ry`), `<circle>`, `<ellipse>`, `<line>`, `<polyline>`, `<polygon>`, all in user
///   units (plain numbers or `px`);
/// - structure: the root `<svg>` (`viewBox`, `width`/`height`, `preserveAspectRatio` `none` or the
///   default `xMidYMid meet`), `<g>` and `<a>`, and `transform` on any of them (`matrix`,
///   `translate`, `scale`, `rotate`, `skewX`, `skewY`);
/// - skipped: what draws nothing (`display="none"`, `fill="none"` without a stroke, inherited
///   from groups too), `<defs>`, `<clipPath>`, `<mask>`, `<symbol>`, `<pattern>`, `<marker>`,
///   gradients, filters, `<title>`, `<desc>`, `<metadata>`, `<style>`, `<script>`, and elements of
///   other namespaces (editors' `sodipodi:` and `inkscape:` data).
/// Everything else that would draw (`<text>`, `<image>`, `<use>`, `<foreignObject>`, a nested
/// `<svg>`, an unknown element, `%`/`em` lengths) is an error naming it, not a silently
/// different outline. Fill and stroke colours, `fill-rule`, clips and masks of the file are not
/// read: the shape layer's own properties apply to the whole outline.
struct SVGShapeSource {
  /// The largest file read, in bytes.
  static let maximumFileSize = 1 << 20
  /// The most elements in a file.
  static let maximumElements = 10_000
  /// How deeply elements may nest.
  static let maximumDepth = 64
  /// The most path elements (moves, lines, curves, closes) in the outline: as many as one path's
  /// data may make (``FlickScene/ShapePath/maximumSVGPathElements``), which bounds the time to
  /// draw it.
  static let maximumPathElements = ShapePath.maximumSVGPathElements

  /// Why a file cannot be read; `message` says what and, when known, at which line.
  struct Failure: Error {
    var message: String
  }

  /// The document's size in user units after the root's `viewBox` mapping (nil when it has
  /// neither `width`/`height` nor a `viewBox`), and its outline in those units.
  var size: Size?
  var path: ShapePath

  /// Reads the file at `path` (already confined by the asset policy).
  init(contentsOf file: String) throws(Failure) {
    let bytes: [UInt8]
    do {
      bytes = try AssetFile.read(file, maximumBytes: Self.maximumFileSize, kind: "a shape source")
    } catch {
      switch error.cause {
      case .tooLarge:
        throw Failure(
          message: "the SVG is larger than \(Self.maximumFileSize >> 10) KiB, the most a shape source reads")
      case .notRegular: throw Failure(message: "is not a regular file (a FIFO or a device), not an SVG file")
      case .cannotOpen, .changed: throw Failure(message: "cannot read the file")
      }
    }
    try self.init(data: Data(bytes))
  }

  init(data: Data) throws(Failure) {
    guard data.count <= Self.maximumFileSize else {
      throw Failure(message: "the SVG is larger than \(Self.maximumFileSize >> 10) KiB, the most a shape source reads")
    }
    var reader = SVGOutlineReader(bytes: Array(data))
    try reader.read()
    self.size = reader.size
    self.path = reader.path
  }
}

extension SVGShapeSource {
  /// The outline placed for a template: in the document's user units after its `viewBox`
  /// mapping, or stretched so the document's box `(0, 0, width, height)` fills `frame`.
  func placed(in frame: Rect?) throws(Failure) -> ShapePath {
    guard let frame else { return path }
    guard let size else {
      throw Failure(message: "'frame' needs the SVG's size: give the file width and height or a viewBox")
    }
    let m = Affine(a: frame.width / size.width, d: frame.height / size.height, e: frame.minX, f: frame.minY)
    return m.apply(path)
  }
}
