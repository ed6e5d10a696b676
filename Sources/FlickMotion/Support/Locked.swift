import Foundation

/// A value shared between threads, read and written under a lock: the one lock type the
/// package's modules use for shared state (`package`: not part of Flick's API).
package final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value

  package init(_ value: Value) { stored = value }

  /// The value; each read and each write takes the lock once.
  package var value: Value {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }

  /// Runs `body` with exclusive access to the value (for read-modify-write).
  package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body(&stored)
  }
}
