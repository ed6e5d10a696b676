import FlickMotion
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Closes a connection whose request head has not all arrived within ``seconds`` of the
/// connection opening, or of its previous request ending (keep-alive). libmicrohttpd's timeout
/// counts idle time only: a client sending a header line every few seconds kept its connections,
/// and with them its address's every place, for as long as it went on.
///
/// The connection's socket is shut down (both ways), which libmicrohttpd's polling thread sees
/// as the client leaving: it closes the connection as it closes any other. The sockets are
/// known by libmicrohttpd's connection notifications, and forgotten, under the same lock that
/// shuts them down, when it reports the connection closed, before it closes the socket: a
/// socket number reused by a later connection is never shut down for an earlier one.
final class HeadDeadline: Sendable {
  /// A connection open now: its socket, and since when (monotonic nanoseconds) it has been
  /// waiting for a request head (nil while a request is being read or answered).
  private struct Open {
    let socket: Int32
    var waitingSince: UInt64?
  }

  /// The seconds a request head may take (> 0).
  let seconds: Double
  private let open = Locked<[UInt: Open]>([:])
  private let stopped = Locked(false)

  /// Starts the thread that looks at the connections, four times per ``seconds`` and at most
  /// every quarter of a second.
  init(seconds: Double) {
    self.seconds = seconds
    let thread = Thread { [self] in watch() }
    thread.name = "flick.studio.heads"
    thread.start()
  }

  /// The key of `connection` (its address).
  private static func key(_ connection: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: connection)) }

  /// `connection` opened on `socket`: its first request head is awaited from now.
  func opened(_ connection: OpaquePointer, socket: Int32) {
    guard socket >= 0 else { return }
    let now = DispatchTime.now().uptimeNanoseconds
    open.withLock { $0[Self.key(connection)] = Open(socket: socket, waitingSince: now) }
  }

  /// A request head arrived on `connection` whole.
  func headArrived(_ connection: OpaquePointer) {
    open.withLock { $0[Self.key(connection)]?.waitingSince = nil }
  }

  /// A request on `connection` ended: the next head is awaited from now.
  func requestEnded(_ connection: OpaquePointer) {
    let now = DispatchTime.now().uptimeNanoseconds
    open.withLock { $0[Self.key(connection)]?.waitingSince = now }
  }

  /// libmicrohttpd closes `connection` (its socket is still open).
  func closed(_ connection: OpaquePointer) {
    _ = open.withLock { $0.removeValue(forKey: Self.key(connection)) }
  }

  /// Ends the watching thread.
  func stop() {
    stopped.withLock { $0 = true }
  }

  private func watch() {
    let limit = UInt64(seconds * 1e9)
    while !stopped.withLock({ $0 }) {
      usleep(useconds_t(max(0.001, min(0.25, seconds / 4)) * 1_000_000))
      open.withLock { connections in
        // Read under the lock, where the times are recorded: never before one of them.
        let now = DispatchTime.now().uptimeNanoseconds
        for (key, connection) in connections {
          guard let since = connection.waitingSince, now > since, now - since > limit else { continue }
          shutdown(connection.socket, Int32(SHUT_RDWR))
          connections[key]?.waitingSince = nil
        }
      }
    }
  }
}
