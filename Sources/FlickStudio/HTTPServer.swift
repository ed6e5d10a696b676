import FlickMotion
internal import CMicroHTTPD
import Foundation

/// A small HTTP server over libmicrohttpd: an internal polling thread (`poll`), a
/// bounded number of connections, every request handed whole (headers, percent-decoded path
/// and query, body) to ``Handler`` off the polling thread. The connection is suspended while
/// the handler works and resumed when it replies, so slow answers (renders) never block the
/// polling thread. Event streams (``EventStream``) stay suspended while they have nothing to send.
///
///     let server = try HTTPServer(host: "127.0.0.1", port: 0) { request, reply in
///       reply(HTTPResponse(contentType: "text/plain", data: Data("hi".utf8)))
///     }
///     print(server.port)
package final class HTTPServer: Sendable {
  /// Answers a request: call `reply` exactly once, on any thread.
  package typealias Handler = @Sendable (HTTPRequest, @escaping @Sendable (HTTPResponse) -> Void) -> Void
  /// Looks at a request's head (method, path, query, headers; no body yet) as it arrives: an
  /// answer refuses it at once, before any of its body is read; nil lets it through.
  package typealias Screen = @Sendable (HTTPRequest) -> HTTPResponse?

  /// The most bytes of a request body read; a longer body gets 413.
  package static let maximumBodyBytes = 1 << 20
  /// The most connections open at once (the browser's, the tests' concurrent requests).
  package static let connectionLimit: UInt32 = 512
  /// The most of them from one address: a flood from one address leaves 128 for the others.
  package static let perAddressLimit: UInt32 = 384
  /// Seconds a connection may stay idle before it is closed (libmicrohttpd's
  /// `MHD_OPTION_CONNECTION_TIMEOUT`): one whose request head has not all arrived, or a
  /// keep-alive connection between requests. A suspended connection is not idle (a frame being
  /// drawn, an event stream with nothing to send, which sends a ping every 15 s): the timeout
  /// does not run while it is suspended, and starts again when it resumes. At the connection
  /// limit new connections wait in the kernel's queue; past the limit of one address, a new one
  /// from it is accepted and closed at once. The timeout counts idle time only: connections that
  /// send a header line every few seconds are closed by ``headTimeout`` instead.
  package static let idleTimeout: UInt32 = 5
  /// Seconds a request head may take to arrive whole, from the connection's start or its
  /// previous request's end (``HeadDeadline``): the idle timeout counts idle time only, so a
  /// client sending a header line every few seconds kept its connections as long as it went on.
  package static let headTimeout = 10.0

  /// The port listened on (the kernel's choice for port 0).
  package var port: Int { boundPort.withLock { $0 } }
  private let boundPort = Locked(0)
  /// The numeric address listened on.
  package let host: String

  let handler: Handler
  let screen: Screen
  /// The connections waiting for a request head, closed past ``headTimeout``.
  let heads = HeadDeadline(seconds: HTTPServer.headTimeout)
  private let daemon: Locked<Daemon?>
  /// Requests handed to the handler and not answered yet (``stop()`` waits for them), and
  /// whether the server is stopping (it then suspends no connection: libmicrohttpd stops with a
  /// suspended connection only by aborting the process).
  let admission = Locked(Admission())

  struct Admission {
    var inFlight = 0
    var stopping = false
  }
  /// Event streams open now (``stop()`` ends them).
  let streams = Locked<[ObjectIdentifier: EventStream]>([:])

  struct Daemon: @unchecked Sendable {
    let pointer: OpaquePointer
  }

  /// Starts listening on `host` (a numeric IPv4 or IPv6 address) and `port` (0: any free port).
  ///
  /// - Throws: ``StudioError/cannotListen(host:port:reason:)``.
  ///
  /// - Parameter screen: The checks a request's head must pass before its body is read (a
  ///   request refused there costs no body buffer: 512 connections of 1 MiB bodies held open
  ///   are half a GiB). A body declared over ``maximumBodyBytes`` gets 413 there too, and every
  ///   request 503 once ``stop(timeout:)`` has begun.
  package init(
    host: String, port: Int, threads: Int = 2, screen: @escaping Screen = { _ in nil }, handler: @escaping Handler
  ) throws(StudioError) {
    self.handler = handler
    self.screen = screen
    self.host = host
    self.daemon = Locked(nil)
    var missing: UnsafePointer<CChar>?
    guard flick_microhttpd_load(&missing) != 0 else {
      let reason = missing.map { String(cString: $0) } ?? "unknown"
      heads.stop()
      throw .cannotListen(host: host, port: port, reason: "libmicrohttpd cannot be loaded: \(escaped: reason)")
    }
    var failure: Int32 = 0
    let me = Unmanaged.passUnretained(self).toOpaque()
    let started = flick_mhd_start(
      host, UInt16(clamping: port), UInt32(max(1, threads)), Self.connectionLimit, Self.perAddressLimit,
      Self.idleTimeout, accessHandler, me, completedHandler, me, notifyHandler, me, &failure)
    guard let started else {
      heads.stop()
      let reason = failure == EINVAL ? "not a numeric IP address" : String(cString: strerror(failure))
      throw .cannotListen(host: host, port: port, reason: reason)
    }
    boundPort.withLock { $0 = Int(flick_mhd_port(started)) }
    daemon.withLock { $0 = Daemon(pointer: started) }
  }

  /// Stops listening: ends every event stream, waits up to `timeout` seconds for answers in
  /// progress, then stops libmicrohttpd's threads and closes every connection. Idempotent.
  package func stop(timeout: Double = 10) {
    guard
      let running = daemon.withLock({ d -> Daemon? in
        defer { d = nil }; return d
      })
    else { return }
    admission.withLock { $0.stopping = true }
    let listening = flick_MHD_quiesce_daemon(running.pointer)
    defer { if listening >= 0 { close(listening) } }
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      for stream in streams.withLock({ Array($0.values) }) { stream.close() }
      if admission.withLock({ $0.inFlight }) == 0 { break }
      // A request still suspended at MHD_stop_daemon is a fatal error in libmicrohttpd: when an
      // answer never comes, the daemon is left running (the process is ending anyway), and so
      // is this server, whose address its callbacks hold: it is kept, never freed under them.
      guard Date() < deadline else {
        _ = Unmanaged.passRetained(self)
        return
      }
      usleep(5_000)
    }
    // Resumed streams need a turn of the polling loop to end before the daemon stops.
    while !streams.withLock({ $0.isEmpty }) && Date() < deadline { usleep(5_000) }
    flick_MHD_stop_daemon(running.pointer)
    heads.stop()
  }

  deinit { stop(timeout: 1) }
}

/// What libmicrohttpd keeps per request (`*con_cls`): the body read so far and the answer.
final class RequestState: @unchecked Sendable {
  /// The request: its head as libmicrohttpd gave it at the first call, its body as it arrives.
  var request: HTTPRequest
  var tooLarge = false
  var started = false
  let response = Locked<HTTPResponse?>(nil)

  init(_ head: HTTPRequest) { request = head }
}

private let accessHandler: MHD_AccessHandlerCallback = {
  cls, connection, url, method, _, uploadData, uploadSize, state -> MHD_Result in
  guard let cls, let connection, let url, let method, let state, let uploadSize else { return .NO }
  let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
  guard let context = state.pointee else {
    // The first call has the head alone: a request refused here is answered before any of its
    // body is read (libmicrohttpd then closes the connection instead of reading the rest).
    server.heads.headArrived(connection)
    let parsed = head(connection, url: url, method: method)
    if let early = server.early(parsed) { return server.queue(early, on: connection) }
    state.pointee = Unmanaged.passRetained(RequestState(parsed)).toOpaque()
    return .YES
  }
  let pending = Unmanaged<RequestState>.fromOpaque(context).takeUnretainedValue()
  if uploadSize.pointee > 0 {
    if let uploadData, pending.request.body.count + uploadSize.pointee <= HTTPServer.maximumBodyBytes {
      pending.request.body.append(
        UnsafeRawPointer(uploadData).assumingMemoryBound(to: UInt8.self), count: uploadSize.pointee)
    } else {
      pending.tooLarge = true
    }
    uploadSize.pointee = 0
    return .YES
  }
  if let response = pending.response.withLock({ r -> HTTPResponse? in
    defer { r = nil }; return r
  }) {
    return server.queue(response, on: connection)
  }
  guard !pending.started else { return .YES }
  pending.started = true
  if pending.tooLarge { return server.queue(StudioResponse.bodyTooLarge, on: connection) }
  // Counted in flight before the connection is suspended, under the lock that says whether the
  // server is stopping: `stop` either sees this request in flight and waits for its answer, or
  // the request sees the stop and is answered now, never suspended.
  guard
    server.admission.withLock({ a -> Bool in
      guard !a.stopping else { return false }
      a.inFlight += 1
      return true
    })
  else { return server.queue(StudioResponse.stopping, on: connection) }
  let handle = HTTPServer.Daemon(pointer: connection)
  flick_MHD_suspend_connection(connection)
  server.handler(pending.request) { response in
    pending.response.withLock { $0 = response }
    flick_MHD_resume_connection(handle.pointer)
    server.admission.withLock { $0.inFlight -= 1 }
  }
  return .YES
}

/// A request as libmicrohttpd parsed its head: method, path, query and headers, no body.
private func head(
  _ connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>
) -> HTTPRequest {
  HTTPRequest(
    method: String(cString: method), path: String(cString: url),
    arguments: values(connection, .GET_ARGUMENT_KIND).map { HTTPRequest.Argument(name: $0.0, value: $0.1) },
    headers: Dictionary(
      values(connection, .HEADER_KIND).map { ($0.0.lowercased(), $0.1) }, uniquingKeysWith: { a, _ in a }))
}

private let completedHandler: MHD_RequestCompletedCallback = { cls, connection, state, _ in
  if let cls, let connection {
    Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().heads.requestEnded(connection)
  }
  guard let state, let context = state.pointee else { return }
  Unmanaged<RequestState>.fromOpaque(context).release()
  state.pointee = nil
}

/// Tells ``HTTPServer/heads`` of each connection opened (with its socket) and closed.
private let notifyHandler: MHD_NotifyConnectionCallback = { cls, connection, _, code in
  guard let cls, let connection else { return }
  let heads = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().heads
  switch code {
  case .CONNECTION_NOTIFY_STARTED: heads.opened(connection, socket: flick_mhd_connection_fd(connection))
  case .CONNECTION_NOTIFY_CLOSED: heads.closed(connection)
  }
}

/// Every (name, value) of `kind` libmicrohttpd parsed for `connection`, in order, with their
/// full lengths: a percent-encoded NUL (`%00`) stays in the value (and is refused where paths
/// are checked) instead of cutting it short.
private func values(_ connection: OpaquePointer, _ kind: MHD_ValueKind) -> [(String, String)] {
  let box = Box()
  _ = flick_MHD_get_connection_values_n(
    connection, kind,
    { cls, _, key, keySize, value, valueSize in
      guard let cls, let key else { return .YES }
      let box = Unmanaged<Box>.fromOpaque(cls).takeUnretainedValue()
      func text(_ pointer: UnsafePointer<CChar>, _ count: Int) -> String {
        pointer.withMemoryRebound(to: UInt8.self, capacity: count) {
          String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
      }
      box.items.append((text(key, keySize), value.map { text($0, valueSize) } ?? ""))
      return .YES
    }, Unmanaged.passUnretained(box).toOpaque())
  return box.items
}

private final class Box {
  var items: [(String, String)] = []
}

extension HTTPServer {
  /// The answer to a request refused from its head alone (``Screen``), or nil.
  fileprivate func early(_ head: HTTPRequest) -> HTTPResponse? {
    if admission.withLock({ $0.stopping }) { return StudioResponse.stopping }
    if let refusal = screen(head) { return refusal }
    if let length = head.header("content-length").flatMap({ Int($0) }), length > Self.maximumBodyBytes {
      return StudioResponse.bodyTooLarge
    }
    return nil
  }

  /// Hands `response` to libmicrohttpd.
  fileprivate func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
    let made: OpaquePointer?
    switch response.body {
    case .data(let data):
      made = data.withUnsafeBytes { raw in
        flick_MHD_create_response_from_buffer(
          data.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), .RESPMEM_MUST_COPY)
      }
    case .events(let stream):
      stream.attach(connection)
      let id = ObjectIdentifier(stream)
      streams.withLock { $0[id] = stream }
      let context = Unmanaged.passRetained(StreamContext(server: self, stream: stream)).toOpaque()
      made = flick_MHD_create_response_from_callback(UInt64.max, 16 * 1024, streamReader, context, streamFinished)
    }
    guard let made else { return .NO }
    defer { flick_MHD_destroy_response(made) }
    for (name, value) in response.headers { _ = flick_MHD_add_response_header(made, name, value) }
    return flick_MHD_queue_response(connection, UInt32(response.status), made)
  }
}

/// What an event stream's reader callbacks get: the stream and the server that lists it.
private final class StreamContext {
  let server: HTTPServer
  let stream: EventStream
  init(server: HTTPServer, stream: EventStream) {
    self.server = server
    self.stream = stream
  }
}

private let streamReader: MHD_ContentReaderCallback = { cls, _, buffer, max -> Int in
  guard let cls, let buffer else { return -2 }  // MHD_CONTENT_READER_END_WITH_ERROR
  let context = Unmanaged<StreamContext>.fromOpaque(cls).takeUnretainedValue()
  return context.stream.read(into: buffer, max: max) ?? -1  // MHD_CONTENT_READER_END_OF_STREAM
}

private let streamFinished: MHD_ContentReaderFreeCallback = { cls in
  guard let cls else { return }
  let context = Unmanaged<StreamContext>.fromOpaque(cls).takeRetainedValue()
  context.stream.finished()
  let id = ObjectIdentifier(context.stream)
  context.server.streams.withLock { _ = $0.removeValue(forKey: id) }
}
