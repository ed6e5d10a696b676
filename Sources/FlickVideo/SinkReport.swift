import Foundation

/// What a sink wrote, for the render's summary (``RenderSummary/Output``): each sink reports
/// its own, so the session never needs to know which kind of sink it drove.
package struct SinkReport: Sendable, Equatable {
  /// Size on disk in bytes (all files of a PNG sequence); 0 before commit.
  package var bytes = 0
  /// Images stored when a GIF or APNG merged runs of identical frames; nil when every frame is
  /// its own image.
  package var images: Int?
  /// Why a GIF or APNG with identical frames kept them all, when it did (nil otherwise).
  package var unmergedReason: String?
  /// Frames in the file when the sink chose a lower rate than its schedule's (a GIF fitted to
  /// `--max-size`); nil when the file has the frames the schedule gave it.
  package var frames: Int?
  /// The file's frame rate when the sink chose a lower one than its schedule's (a GIF fitted to
  /// `--max-size`), in frames per second; nil otherwise.
  package var fps: Int?
  /// What `--max-size` chose for this output (``OutputBudget``), nil without a budget.
  package var budgetNote: String?
  /// What gifsicle did to the GIF kept (nil when it did not run on it).
  package var optimized: GIFOptimizer.Outcome?
  /// Why gifsicle did not optimise a GIF that was kept without its pass (nil when it did not fail).
  package var gifsicleFailure: GIFOptimizer.Failure?

  package init(
    bytes: Int = 0, images: Int? = nil, unmergedReason: String? = nil, frames: Int? = nil, budgetNote: String? = nil
  ) {
    self.bytes = bytes
    self.images = images
    self.unmergedReason = unmergedReason
    self.frames = frames
    self.budgetNote = budgetNote
  }

  /// The size of the file at `path` in bytes (0 when there is none).
  static func fileSize(_ path: String) -> Int {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : 0
  }
}
