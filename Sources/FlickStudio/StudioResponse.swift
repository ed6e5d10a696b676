import Foundation

/// The studio's response shapes: JSON with `Cache-Control: no-store`, errors as
/// `{"error": {"status", "message"}}`, PNG frames, files of the opened folder.
package enum StudioResponse {
  /// The Content-Security-Policy of every API answer: opened as a page (a link to
  /// `/api/file?path=evil.svg` with the token), an answer is a document of an opaque origin that
  /// runs no script and loads nothing, so a file of the opened folder (a pull request's checkout:
  /// untrusted) never acts on the studio's origin with its token. The page's `fetch`, `<img>`
  /// and `EventSource` read the answers as before: a response's policy applies only where it is
  /// shown as a document.
  static let apiPolicy = "sandbox; default-src 'none'"

  /// Headers every answer carries, the page's files included.
  static let commonHeaders: [(name: String, value: String)] = [
    ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff"),
  ]

  /// Headers every API answer carries.
  static let apiHeaders = commonHeaders + [("Content-Security-Policy", apiPolicy)]

  /// The content types of the folder's files the browser may show inline: the raster pictures
  /// an `<img>` draws (and which run nothing). Every other file of the folder (HTML, SVG, XML,
  /// scripts, JSON, text) is sent `Content-Disposition: attachment`: opened from a link, it is
  /// saved, never shown.
  static let inlineTypes: Set<String> = ["image/png", "image/jpeg", "image/webp"]

  /// The bytes of a file of the opened folder (`name`: its path, for its content type): the API
  /// headers, and `Content-Disposition: attachment` unless it is a raster picture
  /// (``inlineTypes``).
  static func folderFile(_ data: Data, name: String) -> HTTPResponse {
    let type = StudioPage.contentType(name)
    var response = raw(contentType: type, data: data)
    if !inlineTypes.contains(type) { response.add("Content-Disposition", "attachment") }
    return response
  }

  /// `value` encoded as JSON; a value JSON cannot carry (an infinite or NaN number: JSON has
  /// no literal for them) is a 500 naming where it is, never an empty or partial answer.
  static func json<T: Encodable>(_ value: T, status: Int = 200) -> HTTPResponse {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    do {
      return raw(status: status, contentType: "application/json; charset=utf-8", data: try encoder.encode(value))
    } catch {
      var place = ""
      if case EncodingError.invalidValue(_, let context) = error {
        place = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
      }
      return Self.error(
        500, "the answer holds a value JSON cannot carry (a number that is not finite) at '\(quoted: place)'")
    }
  }

  /// A body of `contentType` with the API headers.
  static func raw(status: Int = 200, contentType: String, data: Data) -> HTTPResponse {
    var response = HTTPResponse(status: status, contentType: contentType, data: data)
    response.headers += apiHeaders
    return response
  }

  /// `{"error": {"status": status, "message": message}}`.
  static func error(_ status: Int, _ message: String) -> HTTPResponse {
    json(ErrorBody(error: .init(status: status, message: message)), status: status)
  }

  /// 503: a request that came as the studio stops (to the server, a render worker or the
  /// studio itself).
  static var stopping: HTTPResponse { error(503, "the studio is stopping") }

  /// 413: a request body over ``HTTPServer/maximumBodyBytes``.
  static var bodyTooLarge: HTTPResponse { error(413, "the request body is larger than 1 MiB") }

  /// 204 No Content (a superseded frame request).
  static var noContent: HTTPResponse {
    HTTPResponse(status: 204, headers: apiHeaders)
  }

  struct ErrorBody: Encodable {
    struct Detail: Encodable {
      var status: Int
      var message: String
    }
    var error: Detail
  }
}
