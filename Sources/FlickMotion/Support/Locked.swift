import Foundation

/// A value shared between threads, read and written under a lock: the one lock type the
/// package's modules use for shared state (`package`: not part of Flick's API).
package final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value

  package init(_ value: Value) { stored = value }

  /// Runs `body` with exclusive access to the value: the only way in, so a read-modify-write
  /// (`withLock { $0 += 1 }`) is one step that no other thread can split.
  package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body(&stored)
  }
}
