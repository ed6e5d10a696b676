import FlickExpectations
import Foundation
import Testing

@testable import FlickStudio

#if canImport(Glibc)
  import Glibc
#endif

/// A request head sent a line at a time, each line within the idle timeout, is closed once it
/// has taken the head timeout (10 s): libmicrohttpd's idle timeout alone kept it open as long as
/// the lines came, and 384 such connections locked the browser's address out.
@Suite struct StudioHeadTimeoutTests {
  /// Whether the server has closed `fd`: a read that finds the end or an error, not waiting.
  static func isClosed(_ fd: Int32) -> Bool {
    var byte: UInt8 = 0
    let read = recv(fd, &byte, 1, Int32(MSG_DONTWAIT))
    return read == 0 || (read < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
  }

  @Test func aHeadSentLineByLineIsClosed() throws {
    let h = try StudioHarness()
    let fd = try StudioIdleConnectionTests.connect(port: h.port, from: "127.0.0.1")
    defer { close(fd) }
    func send(_ text: String) -> Bool {
      Data(text.utf8).withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } > 0
    }
    #expect(send("GET /api/templates?token=\(h.token) HTTP/1.1\r\nHost: 127.0.0.1:\(h.port)\r\n"))
    // A line a second, well within the 5 s idle timeout, for up to four times the head timeout.
    var closed = false
    for _ in 0..<40 where !closed {
      sleep(1)
      closed = !send("X-Trickle: 1\r\n") || Self.isClosed(fd)
    }
    #expect(closed, "the connection is still open after 40 s of header lines")
    // Others are answered as ever.
    expectEqual(try h.get("/api/templates").status, 200)
  }
}
