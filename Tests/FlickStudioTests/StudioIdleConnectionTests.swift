import FlickExpectations
import Foundation
import Testing

@testable import FlickStudio

#if canImport(Glibc)
  import Glibc
#endif

/// Connections that send half a request head and stop neither hold their place for long nor take
/// every place.
@Suite struct StudioIdleConnectionTests {
  /// A connection to 127.0.0.1:`port` from the loopback address `source`.
  static func connect(port: Int, from source: String) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw RawHTTP.Failure(description: "socket failed") }
    var timeout = timeval(tv_sec: 60, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var local = sockaddr_in()
    local.sin_family = sa_family_t(AF_INET)
    local.sin_addr.s_addr = inet_addr(source)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let status = withUnsafePointer(to: &local) { l in
      l.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    let connected = withUnsafePointer(to: &address) { a in
      a.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard status == 0, connected == 0 else {
      close(fd)
      throw RawHTTP.Failure(description: "connect failed: \(String(cString: strerror(errno)))")
    }
    return fd
  }

  @Test func halfSentRequestHeadsAreClosedAndLeaveRoomForOthers() throws {
    let h = try StudioHarness()
    let flood = Int(HTTPServer.connectionLimit) + 8
    var idle: [Int32] = []
    defer { for fd in idle { close(fd) } }
    let half = Data("GET /studio/app.js HTTP/1.1\r\nHost: 127.0.0.1:\(h.port)\r\n".utf8)
    for _ in 0..<flood {
      let fd = try Self.connect(port: h.port, from: "127.0.0.1")
      _ = half.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      idle.append(fd)
    }
    // Another address is answered while they are all open.
    let other = try Self.connect(port: h.port, from: "127.0.0.2")
    defer { close(other) }
    try RawHTTP.send(
      other, method: "GET", target: "/api/templates?token=\(h.token)", host: "127.0.0.1:\(h.port)", headers: [:],
      body: Data())
    let answer = try RawHTTP.response(other)
    expectEqual(answer.status, 200)
    // The server closes every half-sent one by itself (those over the limit at once), long
    // before the 60 s a read here waits.
    let open = idle.filter { fd in
      var byte: UInt8 = 0
      let n = read(fd, &byte, 1)
      return !(n == 0 || (n < 0 && errno == ECONNRESET))
    }
    expectEqual(open.count, 0)
    // Then the same address is answered again.
    try expectEqual(h.get("/api/templates").status, 200)
  }
}
