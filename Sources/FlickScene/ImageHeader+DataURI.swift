import FlickMotion
import Foundation

extension ImageHeader {
  /// An image embedded as a `data:` URI, checked: its decoded bytes, media type and header.
  package struct Embedded: Sendable {
    package var bytes: Data
    /// `image/png` or `image/jpeg`, from the bytes themselves (whatever the URI said).
    package var mediaType: String
    package var header: ImageHeader
    /// The URI written back canonically: `data:MEDIA;base64,` and standard padded base64 of
    /// ``bytes``, which every base64 decoder reads as the same bytes.
    package var canonicalURI: String { "data:\(mediaType);base64," + bytes.base64EncodedString() }
  }

  /// Decodes and checks an image embedded as `data:[type];base64,…` (ASCII whitespace inside
  /// the base64 is ignored, anything else that is not base64 is refused): it must be a PNG or a
  /// JPEG (by its first bytes) whose header gives at most `maximumPixels` pixels and 65535 a
  /// side, and a JPEG may have at most ``maximumJPEGScans`` scans, as the decoder allows a
  /// template's own images; a PNG's image data must fit its header (``PNGImageData``). Used for Lottie image assets and SVG `<image>`s, which their libraries would decode
  /// by themselves (any format their decoders sniff, at any size).
  package static func embedded(_ uri: String, maximumPixels: Int) throws(Problem) -> Embedded {
    guard uri.hasPrefix("data:"), let comma = uri.firstIndex(of: ","), uri[..<comma].lowercased().hasSuffix(";base64")
    else {
      throw Problem(reason: "an embedded image must be a base64 data: URI (data:image/png;base64,…)")
    }
    let payload = uri[uri.index(after: comma)...].filter { !" \t\n\r\u{0C}".contains($0) }
    guard let bytes = Data(base64Encoded: String(payload)) else {
      throw Problem(reason: "the embedded image is not valid base64")
    }
    let head = [UInt8](bytes.prefix(1 << 20))
    let mediaType: String
    if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
      mediaType = "image/png"
    } else if head.starts(with: [0xFF, 0xD8]) {
      mediaType = "image/jpeg"
    } else {
      throw Problem(reason: "the embedded image is not a PNG or JPEG")
    }
    let header = try parse(head)
    let (count, overflow) = header.width.multipliedReportingOverflow(by: header.height)
    guard !overflow, count <= maximumPixels, header.width <= 65535, header.height <= 65535 else {
      throw Problem(
        reason: "the embedded image is \(header.width)×\(header.height) pixels, more than the cap of \(maximumPixels) "
          + "(--max-pixels or FLICK_MAX_PIXELS raises it)")
    }
    if mediaType == "image/png" {
      do {
        try PNGImageData.check([UInt8](bytes), inflating: true)
      } catch {
        throw Problem(reason: "the embedded PNG: \(escaped: error.reason)")
      }
    }
    if mediaType == "image/jpeg", jpegScans([UInt8](bytes), upTo: maximumJPEGScans) > maximumJPEGScans {
      throw Problem(
        reason: "the embedded JPEG has more than \(maximumJPEGScans) progressive scans (each one a pass over the "
          + "whole image)")
    }
    return Embedded(bytes: bytes, mediaType: mediaType, header: header)
  }
}
