import Foundation

/// The studio's response shapes: JSON with `Cache-Control: no-store`, errors as
/// `{"error": {"status", "message"}}`, PNG frames.
package enum StudioResponse {
  /// Headers every API answer carries.
  static let apiHeaders: [(name: String, value: String)] = [
    ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff"),
  ]

  /// `value` encoded as JSON.
  static func json<T: Encodable>(_ value: T, status: Int = 200) -> HTTPResponse {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
    return raw(status: status, contentType: "application/json; charset=utf-8", data: data)
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
