internal import CCairo
internal import CRSVG
import FlickMotion
import FlickScene
import Foundation

/// One parsed SVG document (a librsvg handle), drawn as vectors into any Cairo context.
///
/// It is made from the file's bytes without a base location, so librsvg loads no other file (no
/// `<image href>` or `<use>` of another document): an SVG stays inside its template's folder.
/// The bytes are checked first (``FlickScene/SVGDocumentCheck``: no reference to anything but
/// the document's own elements and embedded PNG/JPEG images within the pixel cap, bounded size,
/// elements, path data and `<use>` expansion), so that does not rest on librsvg alone. A
/// handle is not drawn from two threads at once; ``SVGStore`` lends each to one user at a time.
final class SVGDocument {
  private let handle: UnsafeMutablePointer<RsvgHandle>
  /// The intrinsic size in CSS pixels (= points): `width`/`height`, or the `viewBox` size.
  let size: Size

  /// The largest SVG file read, in bytes (``FlickScene/SVGDocumentCheck/maximumFileSize``).
  static let maximumFileSize = SVGDocumentCheck.maximumFileSize

  init(data: Data, path: String) throws(RasterError) {
    var failure: UnsafePointer<CChar>?
    guard flick_rsvg_load(&failure) != 0 else {
      let reason = failure.map { String(cString: $0) } ?? "unknown"
      throw .unreadableImage(
        path: path, reason: "SVG pictures need librsvg, which cannot be loaded: \(escaped: reason)")
    }
    var error: UnsafeMutablePointer<GError>?
    let parsed = data.withUnsafeBytes { raw in
      flick_rsvg_handle_new_from_data(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), gsize(raw.count), &error)
    }
    guard let parsed else {
      throw .unreadableImage(path: path, reason: "not a valid SVG file: \(escaped: Self.message(error))")
    }
    var w = 0.0
    var h = 0.0
    if flick_rsvg_handle_get_intrinsic_size_in_pixels(parsed, &w, &h) == 0 || !(w > 0 && h > 0) {
      // Percentages without a viewBox (or a zero size): nothing to place.
      var out: RsvgRectangle = RsvgRectangle()
      var hasViewBox: gboolean = 0
      flick_rsvg_handle_get_intrinsic_dimensions(parsed, nil, nil, nil, nil, &hasViewBox, &out)
      guard hasViewBox != 0, out.width > 0, out.height > 0 else {
        flick_rsvg_object_unref(UnsafeMutableRawPointer(parsed))
        throw .unreadableImage(path: path, reason: "the SVG has no usable size (give it width and height or a viewBox)")
      }
      w = out.width
      h = out.height
    }
    guard w.isFinite, h.isFinite, w <= 100_000, h <= 100_000 else {
      flick_rsvg_object_unref(UnsafeMutableRawPointer(parsed))
      throw .unreadableImage(path: path, reason: "the SVG's size \(w)×\(h) is out of range")
    }
    self.handle = parsed
    self.size = Size(width: w, height: h)
  }

  deinit { flick_rsvg_object_unref(UnsafeMutableRawPointer(handle)) }

  /// Draws the whole document into `rect` (user space of `cr`), scaled as librsvg places a
  /// document in a viewport (`preserveAspectRatio`, by default centred and uniform).
  func draw(in rect: Rect, on cr: OpaquePointer, path: String) throws(RasterError) {
    var viewport = RsvgRectangle(x: rect.minX, y: rect.minY, width: rect.width, height: rect.height)
    var error: UnsafeMutablePointer<GError>?
    guard flick_rsvg_handle_render_document(handle, cr, &viewport, &error) != 0 else {
      throw .unreadableImage(path: path, reason: "librsvg cannot draw it: \(escaped: Self.message(error))")
    }
  }

  private static func message(_ error: UnsafeMutablePointer<GError>?) -> String {
    guard let error else { return "unknown error" }
    defer { flick_rsvg_error_free(error) }
    return error.pointee.message.map { String(cString: $0) } ?? "unknown error"
  }
}

/// The SVG documents of this process, by path: each file is read once, and every worker
/// borrows a document of its own (parsed on its first use, then reused).
enum SVGStore {
  private static let pool = ResourcePool<Data, SVGDocument>(
    read: read, make: { data, path throws(RasterError) in try SVGDocument(data: data, path: path) })

  /// Whether `path` names an SVG picture (by its extension).
  static func isSVG(_ path: String) -> Bool {
    let lower = path.lowercased()
    return lower.hasSuffix(".svg")
  }

  /// Parses the file at `path` (cached) so a render fails before it starts.
  static func check(_ path: String) throws(RasterError) {
    _ = try withDocument(path) { $0.size }
  }

  /// What decoding a picture's embedded images takes besides their pixels (16 MiB): gdk-pixbuf's
  /// loader, loaded on the first image (1.1 MiB), and the heap around two 3000² images (measured
  /// 1–3 MiB over their pixels), with room for another allocator's or library version's heap.
  static let embeddedImageOverhead = 16 << 20

  /// The bytes one document of the picture at `path` holds for its embedded images once drawn:
  /// librsvg decodes each distinct image once, into a Cairo surface it keeps (4 bytes a pixel),
  /// through a GdkPixbuf of the same size freed after the copy (the largest counted once more),
  /// and gdk-pixbuf's loaders and heap take 1–3 MiB more, counted as 16 (``embeddedImageOverhead``); 0 when the
  /// picture embeds no image, or cannot be read or is refused (its check reports that).
  static func embeddedImageBytes(path: String) -> Int {
    guard case .success(let data) = read(path),
      let summary = try? SVGDocumentCheck.check(data, maximumPixels: DecodedImage.maximumPixels),
      !summary.imagePixels.isEmpty
    else { return 0 }
    let bytes = summary.imagePixels.map { $0.multipliedReportingOverflow(by: 4) }
    guard !bytes.contains(where: \.overflow) else { return .max }
    return bytes.reduce(embeddedImageOverhead + (bytes.map(\.partialValue).max() ?? 0)) { a, b in
      let (sum, overflow) = a.addingReportingOverflow(b.partialValue)
      return overflow ? .max : sum
    }
  }

  static func withDocument<T>(_ path: String, _ body: (SVGDocument) throws(RasterError) -> T) throws(RasterError) -> T {
    try pool.withResource(path, body)
  }

  @Sendable private static func read(_ path: String) -> Result<Data, RasterError> {
    if let refusal = FileResolution.refusal(path) { return .failure(.unreadableImage(path: path, reason: refusal)) }
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
      return .failure(.unreadableImage(path: path, reason: "no such file"))
    }
    guard (attributes[.type] as? FileAttributeType) == .typeRegular else {
      return .failure(.unreadableImage(path: path, reason: "not a regular file"))
    }
    if let size = attributes[.size] as? Int, size > SVGDocument.maximumFileSize {
      return .failure(
        .unreadableImage(
          path: path, reason: "the SVG is larger than \(SVGDocument.maximumFileSize >> 20) MiB, the most read"))
    }
    guard
      let data = (try? AssetFile.read(path, maximumBytes: SVGDocument.maximumFileSize, kind: "an SVG file")).map({
        Data($0)
      })
    else {
      return .failure(.unreadableImage(path: path, reason: "cannot read the file"))
    }
    do {
      // The decoder's ceiling: a template has already checked its pictures against --max-pixels.
      try SVGDocumentCheck.check(data, maximumPixels: DecodedImage.maximumPixels)
    } catch {
      return .failure(.unreadableImage(path: "\(quoted: path):\(error.line):\(error.column)", reason: error.message))
    }
    return .success(data)
  }
}

extension LayerPainter {
  /// Draws an SVG `contents` picture as vectors into the rectangle `contentsGravity` gives it, so
  /// it is crisp at any device scale. librsvg draws what the document puts outside its viewport
  /// too: that is cut at the whole device pixels the rectangle covers (as a tinted picture is),
  /// which the layer's ink extents hold.
  func drawSVGContents(_ ref: LayerImage, of layer: Layer, in cr: OpaquePointer) throws(RasterError) {
    try SVGStore.withDocument(ref.path) { document throws(RasterError) in
      let rect = layer.contentsGravity.rect(forImageOf: document.size, in: layer.bounds)
      guard rect.width > 0, rect.height > 0 else { return }
      let box = CairoDraw.deviceBox(rect, CairoDraw.matrix(cr))
      guard box.minX.isFinite, box.minY.isFinite, box.maxX.isFinite, box.maxY.isFinite else { return }
      cairo_save(cr)
      defer { cairo_restore(cr) }
      var m = CairoDraw.matrix(cr)
      cairo_identity_matrix(cr)
      let x0 = Double(CairoDraw.pixel(box.minX.rounded(.down))), y0 = Double(CairoDraw.pixel(box.minY.rounded(.down)))
      let x1 = Double(CairoDraw.pixel(box.maxX.rounded(.up))), y1 = Double(CairoDraw.pixel(box.maxY.rounded(.up)))
      cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0)
      cairo_clip(cr)
      cairo_set_matrix(cr, &m)
      // `resize` stretches: scale the document's own box to the rect instead of letting librsvg
      // keep its aspect ratio.
      cairo_translate(cr, rect.minX, rect.minY)
      cairo_scale(cr, rect.width / document.size.width, rect.height / document.size.height)
      try document.draw(in: Rect(origin: .zero, size: document.size), on: cr, path: ref.path)
    }
  }
}
