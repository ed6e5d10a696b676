import FlickMotion
@testable import FlickStudio
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Stopping the server while clients keep connecting never aborts the process. libmicrohttpd
/// 0.9.75 panics when `MHD_quiesce_daemon` and a polling thread both take the listening socket
/// out of an epoll set (the second removal finds it gone); the server polls with `poll` instead.
@Suite struct HTTPServerStopTests {
  /// A stop whose wait for an answer times out leaves libmicrohttpd running with the server's
  /// address in its callbacks: the server is then kept alive, not freed under them.
  @Test func aStopThatTimesOutKeepsTheServerAlive() throws {
    var server: HTTPServer? = try HTTPServer(host: "127.0.0.1", port: 0) { _, _ in }  // never answers
    let port = try #require(server?.port)
    let fd = try RawHTTP.connect(port: port)
    defer { close(fd) }
    try RawHTTP.send(fd, method: "GET", target: "/", host: "127.0.0.1:\(port)", headers: [:], body: Data())
    while server?.admission.withLock({ $0.inFlight }) == 0 { usleep(1000) }
    server?.stop(timeout: 0.1)
    weak let kept = server
    server = nil
    #expect(kept != nil, "the server was freed while libmicrohttpd still runs with its address")
  }

  @Test func stoppingUnderConnectionsNeverAborts() throws {
    // A write to a connection the stopping server closed must not end the test process.
    signal(SIGPIPE, SIG_IGN)
    for _ in 0..<150 {
      let server = try HTTPServer(host: "127.0.0.1", port: 0) { _, reply in
        reply(HTTPResponse(contentType: "text/plain", data: Data("ok".utf8)))
      }
      let port = server.port
      let done = Locked(false)
      // A client that keeps the polling threads busy while the server stops.
      let client = Thread {
        while !done.withLock({ $0 }) {
          guard let fd = try? RawHTTP.connect(port: port) else { continue }
          try? RawHTTP.send(fd, method: "GET", target: "/", host: "127.0.0.1:\(port)", headers: [:], body: Data())
          close(fd)
        }
      }
      client.start()
      usleep(UInt32.random(in: 0...2000))
      server.stop(timeout: 2)
      done.withLock { $0 = true }
      while client.isExecuting { usleep(200) }
    }
  }
}
