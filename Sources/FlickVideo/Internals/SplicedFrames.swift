import CSpawn
import Foundation

/// The frames handed to a pipe by reference (``PipeWriter/spliceAll(_:_:stallTimeout:progress:)``)
/// that its reader may not have read yet. The pipe holds the frames' memory itself, not a copy,
/// so each array is kept here until the pipe's count of unread bytes shows the reader is past its
/// last byte: its memory is not freed meanwhile, and a frame pool that hands the same array to
/// the next frame finds it shared and draws into a copy (arrays copy on write), never into the
/// bytes the reader has still to read.
///
/// ``awaitAllButLast(_:stallTimeout:progress:)`` runs after each frame, so only the newest frame
/// stays kept: the frame before it goes back to its pool unshared, and the next frame drawn into
/// it needs no copy. The reader has started on that frame by then whenever a frame fills most of
/// the pipe (a 1 MiB pipe, frames from about 0.6 MB up), so the wait is short.
struct SplicedFrames {
  /// The frames kept, oldest first, each with the count of bytes spliced up to its last one.
  private var pending: [(end: Int, bytes: [UInt8])] = []
  /// Bytes handed to the pipe in all.
  private var spliced = 0

  /// Whether frames still go by reference: false once the pipe could not say how much it holds
  /// (the frames then are written, copied, and nothing more is kept).
  private(set) var byReference = true

  /// Frames kept.
  var count: Int { pending.count }

  /// Keeps `bytes`, about to be (or being) handed to the pipe.
  mutating func keep(_ bytes: [UInt8]) {
    spliced += bytes.count
    pending.append((spliced, bytes))
  }

  /// Lets go of the frames the reader of `fd` has read entirely, and returns the bytes it has
  /// read in all; nil when the pipe cannot say how much it holds (then every frame stays kept
  /// until ``removeAll()``).
  @discardableResult
  mutating func release(_ fd: Int32) -> Int? {
    let queued = flick_pipe_queued(fd)
    guard queued >= 0 else {
      byReference = false
      return nil
    }
    let read = spliced - queued
    pending.removeFirst(pending.prefix { $0.end <= read }.count)
    return read
  }

  /// Waits until the reader of `fd` has read every frame but the newest, then lets go of them.
  ///
  /// - Parameters:
  ///   - stallTimeout: Seconds the reader may read nothing while `progress` stays the same
  ///     (nil: wait as long as it takes, as a blocking write does).
  ///   - progress: A counter that moves while the reader works (its CPU time).
  /// - Returns: nil, ``PipeWriter/Failure/stalled``, or an error when the reader has closed the
  ///   pipe (the frames then stay kept until ``removeAll()``).
  mutating func awaitAllButLast(_ fd: Int32, stallTimeout: Double?, progress: () -> Int) -> PipeWriter.Failure? {
    var lastRead = Int.min
    var watch = StallWatch()
    var checked = Stopwatch()
    var pause: UInt32 = 50
    while true {
      guard let read = release(fd), pending.count > 1 else { return nil }
      var pfd = pollfd(fd: fd, events: 0, revents: 0)
      if poll(&pfd, 1, 0) > 0 && pfd.revents & Int16(POLLERR) != 0 {
        return .error(String(cString: strerror(EPIPE)))
      }
      if read != lastRead {
        lastRead = read
        watch.moved()
        pause = 50
      } else if let stallTimeout, checked.seconds >= 1 {
        checked = Stopwatch()
        if watch.stalled(stallTimeout, counter: progress()) { return .stalled }
      }
      usleep(pause)
      pause = min(pause * 2, 2000)
    }
  }

  /// Lets go of every frame: the reader has exited and the pipe is closed.
  mutating func removeAll() {
    pending.removeAll()
  }
}
