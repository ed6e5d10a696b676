import FlickMotion
import FlickRaster
import Foundation

/// A few worker threads, each with warm renderers (``FlickRaster/FrameRenderer``: caches of
/// gradients, shaped text and shadows kept between frames, each frame drawn over the last one
/// in place), drawing the frames the page asks for. A client (`client=` of a request) has at most one frame waiting: a newer request
/// (higher `seq`) takes the place of the waiting one, which is answered 204, so dragging the
/// scrubber never queues work.
package final class RenderPool: Sendable {
  /// Work run on a worker with its renderer for a scale.
  typealias Work = @Sendable (_ renderer: (Double) -> FrameRenderer) -> HTTPResponse

  struct Job: Sendable {
    let client: String?
    let sequence: Int
    let work: Work
    let reply: @Sendable (HTTPResponse) -> Void
  }

  private struct State {
    var queue: [Job] = []
    var stopped = false
    /// Bumped when files changed on disk: workers then drop their warm renderers, whose caches
    /// (kept frame prefixes, Lottie frames, shaped text) identify pictures and fonts by path.
    var generation = 0
  }

  private let state = Locked(State())
  private let condition = NSCondition()
  /// The number of workers.
  package let workers: Int

  /// Starts `workers` threads.
  init(workers: Int) {
    self.workers = max(1, workers)
    for index in 0..<self.workers {
      let thread = Thread { [self] in run() }
      thread.name = "flick.studio.render.\(index)"
      thread.stackSize = 8 << 20
      thread.start()
    }
  }

  /// Queues `work`; `reply` gets its answer, or 204 when a newer request of the same client
  /// replaces it before it starts, or 503 at once after ``stop()`` (whose workers may have left
  /// already: a job queued then would never be answered, and the server waits for every answer
  /// before it stops).
  func submit(client: String?, sequence: Int, work: @escaping Work, reply: @escaping @Sendable (HTTPResponse) -> Void) {
    let job = Job(client: client, sequence: sequence, work: work, reply: reply)
    condition.lock()
    let answered: (job: Job, response: HTTPResponse)? = state.withLock { s in
      if s.stopped { return (job, StudioResponse.stopping) }
      guard let client, let i = s.queue.firstIndex(where: { $0.client == client }) else {
        s.queue.append(job)
        return nil
      }
      if s.queue[i].sequence <= sequence {
        defer { s.queue[i] = job }
        return (s.queue[i], StudioResponse.noContent)
      }
      return (job, StudioResponse.noContent)
    }
    condition.signal()
    condition.unlock()
    if let answered { answered.job.reply(answered.response) }
  }

  /// Makes every worker start its next job with new renderers (files changed on disk).
  func dropWarmCaches() {
    state.withLock { $0.generation += 1 }
  }

  /// Stops the workers once the queue is empty; waiting jobs are answered 503.
  func stop() {
    condition.lock()
    let dropped = state.withLock { s -> [Job] in
      s.stopped = true
      defer { s.queue = [] }
      return s.queue
    }
    condition.broadcast()
    condition.unlock()
    for job in dropped { job.reply(StudioResponse.stopping) }
  }

  private func run() {
    var renderers: [Double: FrameRenderer] = [:]
    var generation = 0
    func renderer(_ scale: Double) -> FrameRenderer {
      if let warm = renderers[scale] { return warm }
      if renderers.count >= 4 { renderers = [:] }
      // A frame is encoded and dropped before the worker's next job, so the next one is drawn
      // over its pixels in place: no buffer allocated, nothing copied. Kept between requests, a
      // renderer does not hold on to motion-blur samples (up to 64 frames) as well.
      let made = FrameRenderer(scale: scale, drawsInPlace: true, keepsSampleBuffers: false)
      renderers[scale] = made
      return made
    }
    while true {
      condition.lock()
      var job: Job?
      while true {
        let (next, stopped, current) = state.withLock { s -> (Job?, Bool, Int) in
          s.queue.isEmpty ? (nil, s.stopped, s.generation) : (s.queue.removeFirst(), false, s.generation)
        }
        if current != generation {
          renderers = [:]
          generation = current
        }
        if let next {
          job = next
          break
        }
        if stopped { break }
        condition.wait()
      }
      condition.unlock()
      guard let job else { return }
      job.reply(job.work(renderer))
    }
  }
}
