import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// HTTP/1.1 over a plain socket, so tests can send what a browser would not (another `Host`,
/// encoded paths as they are) and read event streams as they arrive.
enum RawHTTP {
  struct Response {
    var status: Int
    var headers: [String: String]
    var body: Data
    var text: String { String(decoding: body, as: UTF8.self) }
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Connects to 127.0.0.1:`port`.
  static func connect(port: Int) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw Failure(description: "socket failed") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var timeout = timeval(tv_sec: 60, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let status = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard status == 0 else {
      close(fd)
      throw Failure(description: "connect failed: \(String(cString: strerror(errno)))")
    }
    return fd
  }

  static func send(_ fd: Int32, method: String, target: String, host: String, headers: [String: String], body: Data)
    throws
  {
    var head = "\(method) \(target) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
    var bytes = Data((head + "\r\n").utf8)
    bytes.append(body)
    try bytes.withUnsafeBytes { raw in
      guard let base = raw.baseAddress else { return }
      var done = 0
      while done < raw.count {
        let n = write(fd, base + done, raw.count - done)
        guard n > 0 else { throw Failure(description: "write failed") }
        done += n
      }
    }
  }

  /// One request, read to the end (the server closes: `Connection: close`).
  static func request(
    port: Int, method: String, target: String, host: String, headers: [String: String] = [:], body: Data = Data()
  ) throws -> Response {
    let fd = try connect(port: port)
    defer { close(fd) }
    try send(fd, method: method, target: target, host: host, headers: headers, body: body)
    return try response(fd)
  }

  /// Reads the answer on `fd` to the end (the server closes: `Connection: close`).
  static func response(_ fd: Int32) throws -> Response {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = read(fd, &buffer, buffer.count)
      if n <= 0 { break }
      data.append(contentsOf: buffer[0..<n])
    }
    return try parse(data)
  }

  static func parse(_ data: Data) throws -> Response {
    guard let split = data.range(of: Data("\r\n\r\n".utf8)) else { throw Failure(description: "no header end") }
    let head = String(decoding: data[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
    let parts = head[0].split(separator: " ")
    guard parts.count >= 2, let status = Int(parts[1]) else { throw Failure(description: "bad status line") }
    var headers: [String: String] = [:]
    for line in head.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    var body = Data(data[split.upperBound...])
    if headers["transfer-encoding"]?.lowercased() == "chunked" { body = dechunk(body) }
    return Response(status: status, headers: headers, body: body)
  }

  /// The payload of a chunked body (as much as is complete).
  static func dechunk(_ data: Data) -> Data {
    var out = Data()
    var rest = data[...]
    while let line = rest.range(of: Data("\r\n".utf8)) {
      guard let size = Int(String(decoding: rest[..<line.lowerBound], as: UTF8.self), radix: 16), size > 0,
        rest.distance(from: line.upperBound, to: rest.endIndex) >= size
      else { break }
      let start = line.upperBound
      let end = rest.index(start, offsetBy: size)
      out.append(rest[start..<end])
      rest = rest[min(rest.endIndex, rest.index(end, offsetBy: 2, limitedBy: rest.endIndex) ?? rest.endIndex)...]
    }
    return out
  }
}

/// An open `GET /api/events` stream, read in the background.
final class EventReader: @unchecked Sendable {
  private let fd: Int32
  private let lock = NSCondition()
  private var received = Data()
  private var ended = false

  init(port: Int, token: String) throws {
    fd = try RawHTTP.connect(port: port)
    try RawHTTP.send(
      fd, method: "GET", target: "/api/events?token=\(token)", host: "127.0.0.1:\(port)", headers: [:], body: Data())
    let thread = Thread { [self] in
      var buffer = [UInt8](repeating: 0, count: 16384)
      while true {
        let n = read(fd, &buffer, buffer.count)
        lock.lock()
        if n <= 0 {
          ended = true
          lock.broadcast()
          lock.unlock()
          return
        }
        received.append(contentsOf: buffer[0..<n])
        lock.broadcast()
        lock.unlock()
      }
    }
    thread.start()
  }

  deinit { close(fd) }

  /// The events received so far: (name, data) pairs.
  var events: [(name: String, data: String)] {
    lock.lock()
    defer { lock.unlock() }
    let text: String
    if let split = received.range(of: Data("\r\n\r\n".utf8)) {
      text = String(decoding: RawHTTP.dechunk(Data(received[split.upperBound...])), as: UTF8.self)
    } else {
      text = ""
    }
    return text.components(separatedBy: "\n\n").compactMap { block in
      var name = "message"
      var data: [String] = []
      for line in block.split(separator: "\n") {
        if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
        if line.hasPrefix("data: ") { data.append(String(line.dropFirst(6))) }
      }
      return data.isEmpty ? nil : (name, data.joined(separator: "\n"))
    }
  }

  /// Waits (up to `timeout` seconds, generous) until `count` events named `name` arrived.
  @discardableResult
  func wait(for name: String, count: Int = 1, timeout: Double = 30) -> [(name: String, data: String)] {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      let matching = events.filter { $0.name == name }
      if matching.count >= count { return matching }
      lock.lock()
      if !ended { _ = lock.wait(until: min(deadline, Date().addingTimeInterval(0.2))) }
      lock.unlock()
    }
    return events.filter { $0.name == name }
  }
}
