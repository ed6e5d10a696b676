import FlickMotion
import Foundation

/// A bounded, thread-safe pool of pixel buffers, so a long render draws every frame into memory
/// an earlier frame already used instead of allocating a fresh buffer each time.
///
/// A ``FrameRenderer`` made with a pool takes a buffer of the right size from it for each frame
/// (or allocates one when the pool has none); whoever consumed the frame hands the pixels back
/// with ``recycle(_:)``. Arrays are copy-on-write, so reuse is always safe: a buffer that is
/// still shared when it is drawn into is copied first (``Statistics/copied`` counts those, and
/// a pipeline that drops every other reference before recycling keeps it at zero).
///
///     let pool = FramePool(capacity: 3)
///     let renderer = FrameRenderer(pool: pool)
///     for n in 0..<scene.frameCount {
///       let frame = try renderer.render(scene.renderTree(at: scene.time(ofFrame: n)))
///       try sink.write(frame)
///       pool.recycle(frame.pixels)
///     }
package final class FramePool: Sendable {
  /// How buffers were obtained and returned since the pool was made.
  package struct Statistics: Sendable, Equatable {
    /// Buffers handed out from the pool.
    package var reused: Int
    /// Requests the pool could not serve (the caller allocated a new buffer).
    package var allocated: Int
    /// Reused buffers that were still referenced elsewhere and had to be copied before drawing.
    package var copied: Int
    /// Buffers given back and kept.
    package var returned: Int
    /// Buffers given back but dropped because the pool was full.
    package var dropped: Int

    package init(reused: Int = 0, allocated: Int = 0, copied: Int = 0, returned: Int = 0, dropped: Int = 0) {
      self.reused = reused
      self.allocated = allocated
      self.copied = copied
      self.returned = returned
      self.dropped = dropped
    }
  }

  /// The most buffers kept at once (≥ 1); further returned buffers are released.
  package let capacity: Int
  private let state = Locked(State())

  private struct State {
    var buffers: [[UInt8]] = []
    var counts = Statistics()
  }

  /// A pool keeping at most `capacity` buffers (clamped to ≥ 1).
  package init(capacity: Int) {
    self.capacity = max(1, capacity)
  }

  /// Hands `pixels` back for reuse. Drop every other reference to the array first (frames,
  /// packed copies), or the next frame drawn into it pays for a copy.
  package func recycle(_ pixels: consuming [UInt8]) {
    guard !pixels.isEmpty else { return }
    let buffer = consume pixels  // released when this returns: the kept array is then unique
    state.withLock { [capacity] state in
      if state.buffers.count < capacity {
        state.buffers.append(buffer)
        state.counts.returned += 1
      } else {
        state.counts.dropped += 1
      }
    }
  }

  /// Buffers currently kept.
  package var available: Int { state.withLock { $0.buffers.count } }

  /// Counts since the pool was made.
  package var statistics: Statistics { state.withLock { $0.counts } }

  /// A kept buffer of exactly `count` bytes (contents unspecified: overwrite all of it), or nil
  /// (counted as an allocation the caller makes). Kept buffers of other sizes are released: the
  /// frame size has changed.
  package func take(count: Int) -> [UInt8]? {
    state.withLock { state in
      state.buffers.removeAll { $0.count != count }
      guard let buffer = state.buffers.popLast() else {
        state.counts.allocated += 1
        return nil
      }
      state.counts.reused += 1
      return buffer
    }
  }

  /// Records that a reused buffer had to be copied because it was still shared.
  func noteCopied() {
    state.withLock { $0.counts.copied += 1 }
  }
}
