import CSpawn

/// The calling thread's scheduling priority: its nice value, which Linux keeps per thread.
///
/// A raster worker that is a whole encoder lead ahead of ffmpeg lowers its own priority to
/// ``yielding`` (``RenderPipeline/yieldsToEncoder``): ffmpeg then runs as soon as it has a frame
/// and the workers draw on what the encoder leaves of the cores. Flick never raises a priority
/// (an unprivileged thread could not lower its nice value again).
package enum ThreadPriority {
  /// The nice value of a raster worker that waits on its encoder (10, of 0–19: a thread at 0 gets
  /// about nine tenths of a core both want).
  package static let yielding: Int32 = 10

  /// The calling thread's nice value (-20–19), or nil where threads have none of their own.
  package static var nice: Int32? {
    var value: Int32 = 0
    return flick_thread_nice(&value) == 0 ? value : nil
  }

  /// Sets the calling thread's nice value to `nice` (0–19) when that lowers its priority; where
  /// it cannot (no per-thread nice value, a refusal), the thread keeps its priority, which changes
  /// how soon frames are drawn but never what they are.
  package static func lower(to nice: Int32) {
    _ = flick_thread_lower_priority(nice)
  }
}
