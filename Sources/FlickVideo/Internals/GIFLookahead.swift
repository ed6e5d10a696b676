import FlickMotion
import Foundation

/// The setting a GIF's `--max-size` search measures next, encoded on a thread of its own while
/// gifsicle works on the current candidate (``GIFFinishing``): gifsicle and ffmpeg's passes each
/// keep one core busy, one after the other. The search takes the encoding when it then asks for
/// that setting; when gifsicle brings the candidate under the budget, or shrinks it enough that
/// the search goes to another setting, the lookahead is stopped and its files removed. Which
/// setting is chosen, its bytes and the encodings counted do not depend on it.
///
/// One thread owns it: the one that started it waits for it or stops it.
final class GIFLookahead: @unchecked Sendable {
  /// What the encoding on the other thread needs: a copy of the finishing step, and where it
  /// writes.
  typealias Encode = (_ setting: OutputBudget.Setting, _ into: String, _ palette: String, _ stopping: () -> Bool)
    throws(VideoError) -> Int?

  /// The setting being encoded.
  let setting: OutputBudget.Setting
  /// The candidate file it writes (`.NAME.lookahead.gif.PID.partial`).
  let path: String
  private let stopped = Locked(false)
  private var task: BackgroundTask<Int?>?

  /// Starts encoding `setting` into `path` with `encode` (its palette pass writes `palette`,
  /// which `encode` removes); `encode` must be safe to run beside the caller's gifsicle pass.
  init(setting: OutputBudget.Setting, path: String, palette: String, encode: @escaping Encode) {
    self.setting = setting
    self.path = path
    let work = UncheckedWork(encode: encode)
    task = BackgroundTask { [self] in
      try work.encode(setting, path, palette) { self.stopped.withLock { $0 } }
    }
  }

  deinit { stop() }

  /// Waits for the encoding: the frames it encoded (its file is at ``path``).
  ///
  /// - Throws: What the encoding threw (a failed ffmpeg, a full disk).
  func wait() throws(VideoError) -> Int {
    do {
      if let frames = try task?.wait() { return frames }
    } catch let error as VideoError {
      throw error
    } catch {
      throw .cannotWrite(path: path, reason: "\(escaped: error)")
    }
    preconditionFailure("a lookahead waited for after it was stopped")
  }

  /// Stops the encoding (ffmpeg is killed before its next frame, or its next pass is not
  /// started), waits for its thread and removes its files; idempotent.
  func stop() {
    guard let task else { return }
    stopped.withLock { $0 = true }
    _ = try? task.wait()
    self.task = nil
    EncodedFile.discard(path)
  }

  /// The encoding closure, carried to the other thread: it reads the spool with its own
  /// offsets and buffers and writes only its own temporaries, while the thread that started it
  /// runs gifsicle and nothing else until it waits for it or stops it.
  private struct UncheckedWork: @unchecked Sendable {
    let encode: Encode
  }
}
