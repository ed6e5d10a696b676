import FlickScene
import FlickMotion
import Foundation

extension Template {
  /// Checks an SVG `contents` picture when the template loads (``FlickScene/SVGDocumentCheck``:
  /// what it refers to, embeds and expands into), so a refusal names the template's node and the
  /// line and column in the SVG. A missing or unreadable file is reported where it is drawn.
  static func checkSVGContents(_ node: TemplateNode, written: String, path: String) throws(TemplateError) {
    let data: Data
    do {
      data = Data(try AssetFile.read(path, maximumBytes: SVGDocumentCheck.maximumFileSize, kind: "an SVG file"))
    } catch {
      guard case .tooLarge = error.cause else { return }
      throw node.error(
        "image \"\(quoted: written)\": the SVG is larger than \(SVGDocumentCheck.maximumFileSize >> 20) MiB, the most read"
      )
    }
    do {
      try SVGDocumentCheck.check(data, maximumPixels: node.context.limits.maximumImagePixels)
    } catch {
      throw node.error(
        "image \"\(quoted: written)\", line \(error.line), column \(error.column): \(escaped: error.message)")
    }
  }
}
