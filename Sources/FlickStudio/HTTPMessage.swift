import Foundation

/// A request as libmicrohttpd parsed it (``HTTPServer``): nothing here is parsed by hand.
package struct HTTPRequest: Sendable {
  /// `GET`, `POST`, …
  package var method: String
  /// The path, percent-decoded by libmicrohttpd (`/api/frame.png`).
  package var path: String
  /// The query arguments in order, percent-decoded (a name may repeat: `set=`).
  package var arguments: [Argument]
  /// Header values by lower-cased name (the first of repeated headers).
  package var headers: [String: String]
  /// The body (at most ``HTTPServer/maximumBodyBytes``).
  package var body: Data

  /// One query argument; `value` is empty for `?name`.
  package struct Argument: Sendable, Equatable {
    package var name: String
    package var value: String
  }

  package init(
    method: String, path: String, arguments: [Argument] = [], headers: [String: String] = [:], body: Data = Data()
  ) {
    self.method = method
    self.path = path
    self.arguments = arguments
    self.headers = headers
    self.body = body
  }

  /// The first value of the query argument `name`.
  package func argument(_ name: String) -> String? { arguments.first { $0.name == name }?.value }

  /// Every value of the query argument `name`, in order.
  package func arguments(_ name: String) -> [String] { arguments.filter { $0.name == name }.map(\.value) }

  /// The header `name` (any case).
  package func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// What ``HTTPServer`` sends back.
package struct HTTPResponse: Sendable {
  /// The status code (200, 204, 403, …).
  package var status: Int
  /// Headers in order (`Content-Type` included).
  package var headers: [(name: String, value: String)]
  /// The body.
  package var body: Body

  /// A body sent whole, or a stream of Server-Sent Events that stays open.
  package enum Body: Sendable {
    case data(Data)
    case events(EventStream)
  }

  package init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .data(Data())) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// A response of `contentType` with `data`.
  package init(status: Int = 200, contentType: String, data: Data) {
    self.init(status: status, headers: [("Content-Type", contentType)], body: .data(data))
  }

  /// Appends a header.
  package mutating func add(_ name: String, _ value: String) { headers.append((name, value)) }
}
