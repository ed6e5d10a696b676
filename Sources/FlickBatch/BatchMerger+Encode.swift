import FlickMotion
import FlickRaster
import FlickScene
import FlickSnapshot
import FlickVideo
import Foundation

extension BatchMerger {
  /// One output of a merge that is encoded from the clip's frames (GIF, WebM, ProRes, APNG, WebP).
  struct EncodedOutput {
    /// Where the encoder's finished file goes (the merge's temporary beside the destination).
    var temporary: String
    var format: OutputFormat
  }

  /// Encodes `outputs` from the chunk frames in `folder` (named by scene frame with the clip's
  /// digits, checked by ``ChunkVerifier``) with the encoders a single render uses
  /// (``FlickVideo/FrameSchedule/Output/encoder(destination:width:height:options:ffmpeg:stallTimeout:)``),
  /// fed the frames a single render of the merge's outputs feeds them: the same frames (the
  /// render's ``FlickVideo/FrameSchedule``: a GIF at a lower `gifFps` gets the ones it keeps), the same
  /// bytes (a PNG frame read back as Cairo reads it is the premultiplied frame the chunk drew,
  /// made straight as a render makes it), and the same
  /// ``FlickVideo/PreparedFrame/repeatsPrevious`` flags, decided from the scene's render trees as
  /// ``FlickVideo/RenderPipeline`` decides them. So a GIF's palette comes from every frame of the
  /// clip, identical frames merge as in a single render, and the file is the single render's.
  func encode(_ merge: BatchPlan.Merge, _ outputs: [EncodedOutput], frames folder: String, tool: FFmpegTool) throws {
    guard !outputs.isEmpty, let scene = merge.chunks.first?.scene else { return }
    let first = merge.spec.frames[0], last = merge.spec.frames[1]
    var options = merge.options
    options.padColor = RenderSession.rgb(scene.backgroundColor)
    // The schedule of a single render of every output of the merge: it delivers the frames some
    // output keeps (every frame when the clip also has an MP4 or a PNG sequence).
    let all = try FrameSchedule(
      renderFPS: merge.fps, frames: first..<(last + 1), outputs: merge.targets.map(\.format), options: options)
    let schedule = try FrameSchedule(
      renderFPS: merge.fps, frames: first..<(last + 1), outputs: outputs.map(\.format), options: options)
    var encoders: [any FrameSink] = []
    defer { for encoder in encoders { encoder.abort() } }
    for (index, (output, plan)) in zip(outputs, schedule.outputs).enumerated() {
      encoders.append(
        try plan.encoder(
          destination: output.temporary, width: merge.width, height: merge.height, options: options, ffmpeg: tool,
          stallTimeout: limits.encoderTimeout, firstGIF: FrameSchedule.Output.isFirstGIF(index, in: schedule.outputs)))
    }
    var deliveries = schedule.outputs.map { FrameSchedule.Delivery($0, first: first) }
    let delivered = all.rendered
    let decodeLimits = DecodeLimits(
      maxPixels: merge.width * merge.height, maxFileBytes: merge.width * merge.height * 8 + (1 << 20))
    var previousTree: RenderTree?
    var treeIndex = first - 1
    var held: PreparedFrame?
    for n in delivered {
      // A frame repeats the one delivered before exactly when every frame between them, delivered
      // or not, draws as its predecessor does (RenderPipeline's chain of comparisons).
      var repeats = previousTree != nil
      while treeIndex < n {
        treeIndex += 1
        let tree = scene.renderTree(at: scene.time(ofFrame: treeIndex))
        if let previous = previousTree, repeats { repeats = Renderer.drawsIdentically(previous, tree) }
        previousTree = tree
      }
      var frame: PreparedFrame
      if repeats, let previous = held {
        // As the pipeline delivers a repeat: the frame before, renumbered.
        frame = previous
        frame.index = n
        frame.repeatsPrevious = true
      } else {
        let path = folder + "/" + Stamp.frameName(n, digits: merge.digits)
        let image: PNGImage
        do {
          image = try PNGImage(contentsOf: path, limits: decodeLimits)
        } catch {
          throw BatchError.invalidInput("\(quoted: merge.spec.name): chunk frame \(quoted: path) does not decode")
        }
        guard image.width == merge.width, image.height == merge.height else {
          throw BatchError.invalidInput(
            "\(quoted: merge.spec.name): chunk frame \(quoted: path) is not \(merge.width)×\(merge.height) pixels")
        }
        // Premultiplied as Cairo reads a PNG, which gives back exactly the frame the chunk's render
        // drew (its PNG writer's un-premultiplying loses nothing that this rounding does not
        // restore); then made straight as a render makes it for these encoders.
        frame = PreparedFrame(index: n, frame: image.frame, layouts: .premultipliedAndStraight)
      }
      held = frame
      for (i, encoder) in encoders.enumerated() {
        if let kept = deliveries[i].admit(frame) { try encoder.write(kept) }
      }
    }
    for encoder in encoders { try encoder.finish() }
    for encoder in encoders { try encoder.commit() }
  }
}
