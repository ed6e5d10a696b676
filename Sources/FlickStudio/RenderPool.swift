import FlickMotion
import FlickRaster
import FlickVideo
import Foundation

/// A few worker threads, each with warm renderers (``FlickRaster/FrameRenderer``: caches of
/// gradients, shaped text and shadows kept between frames, each frame drawn over the last one
/// in place), drawing the frames the page asks for. A client (`client=` of a request) has at most one frame waiting: a newer request
/// (higher `seq`) takes the place of the waiting one, which is answered 204, so dragging the
/// scrubber never queues work.
///
/// A job that runs past ``frameTimeout`` (a font FreeType never finishes, a Lottie file rlottie
/// loops on) cannot be stopped, as it runs inside C: its request is answered 503 saying so, its
/// worker is retired (it leaves when the job ever returns) and a new one takes its place, so the
/// other templates keep rendering. Until a file of the folder changes, further requests for that
/// template are answered the same at once rather than tying up worker after worker.
///
/// A retired job keeps its buffers until it returns, so at most ``workers`` of them are replaced:
/// a worker whose job runs past the limit while as many retired ones still draw is retired without
/// a replacement, and once no worker is left every frame is answered 503 at once (saying how many
/// drawings are stuck) until one returns, whose worker then takes the missing place again. At most
/// twice ``workers`` drawings run at any time.
package final class RenderPool: Sendable {
  /// Work run on a worker with its renderer for a scale.
  typealias Work = @Sendable (_ renderer: (Double) -> FrameRenderer) -> HTTPResponse

  struct Job: Sendable {
    let client: String?
    let sequence: Int
    /// The template the job draws (its name), for ``frameTimeout``'s refusals; nil for none.
    let template: String?
    let work: Work
    let reply: @Sendable (HTTPResponse) -> Void
  }

  /// A job a worker runs now: since when (monotonic nanoseconds) and whether it was answered.
  private struct Running {
    let job: Job
    let started: UInt64
    let answered: Locked<Bool>
  }

  private struct State {
    var queue: [Job] = []
    var stopped = false
    /// Bumped when files changed on disk: workers then drop their warm renderers, whose caches
    /// (kept frame prefixes, Lottie frames, shaped text) identify pictures and fonts by path.
    var generation = 0
    /// What each worker runs, by worker number.
    var running: [Int: Running] = [:]
    /// Workers whose job ran past the limit: they leave when it returns.
    var retired: Set<Int> = []
    /// Places of retired workers that no new worker took (``workers`` retired ones drew on
    /// already): the next retired worker whose job returns takes one instead of leaving.
    var vacant = 0
    /// Templates with a job past the limit, and its message, until a file changes.
    var hung: [String: String] = [:]
    var nextWorker = 0
  }

  private let state = Locked(State())
  private let condition = NSCondition()
  /// The number of workers.
  package let workers: Int
  /// How long one job may run before it is answered without it, in seconds (> 0).
  package let frameTimeout: Double

  /// Starts `workers` threads, and the watch over their jobs.
  init(workers: Int, frameTimeout: Double = 120) {
    self.workers = max(1, workers)
    self.frameTimeout = frameTimeout
    for _ in 0..<self.workers { startWorker() }
    let watch = Thread { [self] in watchJobs() }
    watch.name = "flick.studio.watch"
    watch.start()
  }

  private func startWorker() {
    let index = state.withLock { s -> Int in
      defer { s.nextWorker += 1 }
      return s.nextWorker
    }
    DrawingThread.start(name: "flick.studio.render.\(index)") { [self] in run(worker: index) }
  }

  /// Answers each job that runs past ``frameTimeout`` with 503, retires its worker and starts
  /// another in its place; looks four times per limit, at most every quarter of a second.
  private func watchJobs() {
    let nanoseconds = UInt64(frameTimeout * 1e9)
    while true {
      usleep(useconds_t(max(0.001, min(0.25, frameTimeout / 4)) * 1_000_000))
      let found = state.withLock { s -> (overdue: [(Running, String, replaced: Bool)], dropped: [Job], String?)? in
        if s.stopped { return nil }
        // Read under the lock, where jobs are recorded: never before a recorded job's start (a
        // read outside it wrapped around for a job that began meanwhile).
        let now = DispatchTime.now().uptimeNanoseconds
        var overdue: [(Running, String, replaced: Bool)] = []
        for (worker, running) in s.running
        where !s.retired.contains(worker) && now > running.started && now - running.started > nanoseconds {
          // At most `workers` retired drawings get a new worker in their place.
          let replaced = s.retired.count < workers
          s.retired.insert(worker)
          if !replaced { s.vacant += 1 }
          let message =
            (running.job.template.map { "a frame of '\(quoted: $0)'" } ?? "a job")
            + " has been drawing for more than \(RenderLimits.format(seconds: frameTimeout)) (a font, picture or effect the "
            + "drawing libraries do not finish; flick studio --frame-timeout sets the limit); save the template or "
            + "a file it reads to try again"
          if let template = running.job.template { s.hung[template] = message }
          overdue.append((running, message, replaced))
        }
        // With no worker left, waiting jobs would wait for a stuck drawing to return.
        guard !overdue.isEmpty, let stuck = Self.stuckMessage(s, workers: workers) else { return (overdue, [], nil) }
        defer { s.queue = [] }
        return (overdue, s.queue, stuck)
      }
      // A stopped pool's workers end with their queue: nothing more to watch.
      guard let (overdue, dropped, stuck) = found else { return }
      for (running, message, replaced) in overdue {
        if replaced { startWorker() }
        if running.answered.withLock({ answered in
          defer { answered = true }
          return !answered
        }) {
          running.job.reply(StudioResponse.error(503, message))
        }
      }
      if let stuck { for job in dropped { job.reply(StudioResponse.error(503, stuck)) } }
    }
  }

  /// Queues `work`; `reply` gets its answer, or 204 when a newer request of the same client
  /// replaces it before it starts, or 503 at once after ``stop()`` (whose workers may have left
  /// already: a job queued then would never be answered, and the server waits for every answer
  /// before it stops).
  func submit(
    client: String?, sequence: Int, template: String? = nil, work: @escaping Work,
    reply: @escaping @Sendable (HTTPResponse) -> Void
  ) {
    let job = Job(client: client, sequence: sequence, template: template, work: work, reply: reply)
    condition.lock()
    let answered: (job: Job, response: HTTPResponse)? = state.withLock { s in
      if s.stopped { return (job, StudioResponse.stopping) }
      if let template, let message = s.hung[template] { return (job, StudioResponse.error(503, message)) }
      if s.vacant >= workers, let message = Self.stuckMessage(s, workers: workers) {
        return (job, StudioResponse.error(503, message))
      }
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

  /// Why a job is refused while every worker's place is held by a stuck drawing: nil when some
  /// worker is left.
  private static func stuckMessage(_ s: State, workers: Int) -> String? {
    guard s.vacant >= workers else { return nil }
    let count = s.retired.count
    return "\(count) frame\(count == 1 ? "" : "s") still draw past --frame-timeout and cannot be stopped; the studio "
      + "leaves at most \(workers) stuck beside new workers (--workers) and draws again when one ends "
      + "(or restart flick studio)"
  }

  /// Makes every worker start its next job with new renderers (files changed on disk).
  func dropWarmCaches() {
    state.withLock {
      $0.generation += 1
      // A changed file may be what hung: the template gets another try.
      $0.hung = [:]
    }
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

  private func run(worker: Int) {
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
      let running = Running(job: job, started: DispatchTime.now().uptimeNanoseconds, answered: Locked(false))
      state.withLock { $0.running[worker] = running }
      let response = job.work(renderer)
      let retired = state.withLock { s -> Bool in
        s.running[worker] = nil
        guard s.retired.remove(worker) != nil else { return false }
        // A place no new worker took: this one takes it again instead of leaving.
        guard s.vacant > 0 else { return true }
        s.vacant -= 1
        return false
      }
      // Answered by the watch already when the job ran past the limit.
      if running.answered.withLock({ answered in
        defer { answered = true }
        return !answered
      }) {
        job.reply(response)
      }
      if retired { return }
    }
  }
}
