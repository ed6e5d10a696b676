import FlickMotion
import FlickVideo
import Foundation

extension BatchMerger {
  /// The merged PNG sequence of `merge` at `target`, its frames copied from the chunks' frames in
  /// `frames` (a folder of the work folder, names of ``BatchPlan/Merge/digits`` digits) into the
  /// staging folder of a ``FlickVideo/PNGSequenceWriter``, ready to commit as a single render of
  /// the clip commits: the same names and marker, the folder exchanged whole only when it holds
  /// nothing but Flick's frames and updated in place otherwise, listed frames a render would
  /// find stale removed, nothing else touched.
  ///
  /// - Throws: ``FlickVideo/VideoError`` when the sequence cannot be prepared,
  ///   ``BatchError/environment(_:)`` when a frame cannot be copied.
  func mergedSequence(_ merge: BatchPlan.Merge, at target: OutputTarget, frames: String) throws -> PNGSequenceWriter {
    let first = merge.spec.frames[0], last = merge.spec.frames[1]
    // As a render of frames first…last of the scene: frames of the folder past the scene's end
    // are stale, the others stay.
    let sceneLast = (merge.chunks.first?.scene.frameCount ?? last + 1) - 1
    let writer = try PNGSequenceWriter(destination: target.path, lastIndex: last, sceneLastIndex: sceneLast)
    for index in first...last {
      try Self.copyFrame(
        frames + "/" + Stamp.frameName(index, digits: merge.digits),
        to: writer.stagingFolder + "/" + writer.fileName(ofFrame: index))
      writer.adopt(frame: index)
    }
    // Flushed before the commit, as a render's frames are flushed as they are written.
    if let failure = AtomicDestination.syncContents(ofFolder: writer.stagingFolder) {
      throw BatchError.environment("cannot flush the frames of \(quoted: target.path): \(escaped: failure)")
    }
    return writer
  }
}
