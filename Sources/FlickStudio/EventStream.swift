import FlickMotion
internal import CMicroHTTPD
import Foundation

/// One open Server-Sent Events connection: text queued by ``send(_:)`` is handed to
/// libmicrohttpd by its content reader; with nothing queued the connection is suspended (no
/// busy polling) and resumed by the next ``send(_:)`` or ``close()``.
package final class EventStream: Sendable {
  private struct State {
    var pending = Data()
    var closed = false
    var suspended = false
    var connection: Connection?
  }

  /// libmicrohttpd's connection handle, only used under the stream's lock.
  struct Connection: @unchecked Sendable {
    let pointer: OpaquePointer
  }

  private let state = Locked(State())
  /// The most bytes queued for a client that does not read before it is dropped.
  static let maximumPending = 4 << 20

  package init() {}

  /// Whether the stream was closed (by the server or because the client went away).
  package var isClosed: Bool { state.withLock { $0.closed } }

  /// Queues one event: `event: NAME` and one `data:` line of JSON (or a comment when `name` is nil).
  package func send(event name: String?, data: String) {
    var text = ""
    if let name { text += "event: \(name)\n" }
    for line in data.split(separator: "\n", omittingEmptySubsequences: false) { text += "data: \(line)\n" }
    send(raw: text + "\n")
  }

  /// Queues raw SSE text (`": ping\n\n"`).
  package func send(raw text: String) {
    state.withLock { s in
      guard !s.closed else { return }
      s.pending.append(Data(text.utf8))
      if s.pending.count > Self.maximumPending { s.closed = true }
      resume(&s)
    }
  }

  /// Ends the stream: the client sees the end of the response.
  package func close() {
    state.withLock { s in
      s.closed = true
      resume(&s)
    }
  }

  private func resume(_ s: inout State) {
    if s.suspended, let c = s.connection {
      s.suspended = false
      flick_MHD_resume_connection(c.pointer)
    }
  }

  /// Ties the stream to its connection (before the response is queued).
  func attach(_ connection: OpaquePointer) {
    state.withLock { $0.connection = Connection(pointer: connection) }
  }

  /// The content reader's step: copies queued bytes into `buffer` (count), or suspends the
  /// connection and returns 0, or returns nil at the end of the stream.
  func read(into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int? {
    state.withLock { s in
      if !s.pending.isEmpty {
        let n = min(max, s.pending.count)
        s.pending.withUnsafeBytes { raw in
          guard let base = raw.baseAddress else { return }
          UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: n)
        }
        s.pending.removeFirst(n)
        return n
      }
      if s.closed { return nil }
      if let c = s.connection {
        s.suspended = true
        flick_MHD_suspend_connection(c.pointer)
      }
      return 0
    }
  }

  /// Called when libmicrohttpd frees the response (the client went away or the stream ended).
  func finished() {
    state.withLock { s in
      s.closed = true
      s.connection = nil
      s.suspended = false
      s.pending = Data()  // nobody will read it
    }
  }
}
