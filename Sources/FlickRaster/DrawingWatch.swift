import FlickMotion
import Foundation

/// Bounds how long one frame may take to draw, for what cannot be checked before drawing: a
/// font whose glyphs FreeType never finishes rasterising (a 724-byte colour font hung
/// `cairo_show_glyphs` for good), a picture a decoder loops on. The caps checked up front
/// (pixels, work, memory) bound what a template asks for; this bounds what the libraries do
/// with it.
///
/// Off until ``start(limit:stop:)``: the commands that draw (`flick render`, `still`, `run`,
/// `snapshot`, `verify`…) start it with `--frame-timeout`, and its `stop` ends the process as
/// an interruption does. A thread stuck in C cannot be stopped, only its process, so library
/// callers and the studio (whose workers serve many templates) leave it off. Every entry point
/// of drawing (``Renderer/render(_:)``, ``FrameRenderer/render(_:)``) goes through
/// ``drawing(_:_:)``; while the watch is off that is one atomic read.
///
/// Only elapsed time is read, from the monotonic clock, and only to stop: no pixel depends on it.
package enum DrawingWatch {
  /// Starts the watch: when one frame has been drawing for more than `limit` seconds (> 0),
  /// `stop` is called once with that frame's snapshot time and how long it has been drawing
  /// (seconds). `stop` is expected to end the process. A later call replaces both.
  package static func start(limit: Double, stop: @escaping @Sendable (_ time: Double, _ seconds: Double) -> Void) {
    state.withLock {
      $0.limit = limit
      $0.stop = stop
    }
    _ = thread
  }

  /// Runs `body`, the drawing of the frame at snapshot time `time`, under the watch and on a
  /// drawing thread (``DrawingThread/run(_:)``: a new one when the caller is not one, such as
  /// the main thread of `flick still`), so that a tree at ``FlickScene/Layer/maximumDrawingDepth``
  /// draws within its stack whatever `ulimit -s` is.
  package static func drawing<T>(_ time: Double, _ body: () throws(RasterError) -> T) throws(RasterError) -> T {
    try DrawingThread.run { () throws(RasterError) -> T in try watched(time, body) }
  }

  /// ``drawing(_:_:)`` on the thread it runs on.
  private static func watched<T>(_ time: Double, _ body: () throws(RasterError) -> T) throws(RasterError) -> T {
    guard state.withLock({ $0.limit > 0 }) else { return try body() }
    let ticket = state.withLock { s -> Int in
      s.next += 1
      s.running[s.next] = (DispatchTime.now().uptimeNanoseconds, time)
      return s.next
    }
    defer { _ = state.withLock { $0.running.removeValue(forKey: ticket) } }
    return try body()
  }

  private struct State {
    var limit = 0.0
    var stop: (@Sendable (Double, Double) -> Void)?
    var next = 0
    /// The frames being drawn: when each started (monotonic nanoseconds) and its time.
    var running: [Int: (started: UInt64, time: Double)] = [:]
    var stopped = false
  }

  private static let state = Locked(State())

  private static let thread: Void = {
    let thread = Thread {
      while true {
        let limit = state.withLock { $0.limit }
        // Four looks per limit, at most one every quarter of a second.
        usleep(useconds_t(max(0.001, min(0.25, limit / 4)) * 1_000_000))
        let overdue = state.withLock {
          s -> (stop: @Sendable (Double, Double) -> Void, time: Double, seconds: Double)? in
          guard !s.stopped, s.limit > 0, let stop = s.stop,
            let oldest = s.running.values.min(by: { $0.started < $1.started })
          else { return nil }
          // Read under the lock, where frames are recorded: a read before it came before the
          // start of a frame that began meanwhile, and the difference wrapped around (a merge
          // was stopped for a frame "drawing for 18446744073.7 s").
          let now = DispatchTime.now().uptimeNanoseconds
          let seconds = Double(now > oldest.started ? now - oldest.started : 0) / 1e9
          guard seconds > s.limit else { return nil }
          s.stopped = true
          return (stop, oldest.time, seconds)
        }
        if let overdue { overdue.stop(overdue.time, overdue.seconds) }
      }
    }
    thread.name = "flick.drawing"
    thread.start()
  }()
}
