import FlickMotion
import FlickRaster
import FlickTemplates
import FlickVideo

/// What planning checks of each job beyond its manifest: that its template can draw (the draw
/// check every single-template command runs) and that it stays under the operator's caps.
extension BatchPlan {
  /// Runs the load-time draw check (``FlickTemplates/Template/checkDrawable()``) on the
  /// template of `variant` of render `r`, so that a missing font, a picture that does not decode
  /// or a Lottie file that does not load is invalid input found by `flick plan` (and again by
  /// `flick run`), not a draw-time failure (exit 3) that retries would repeat.
  ///
  /// - Throws: ``FlickTemplates/TemplateError`` at the template member that names the font or
  ///   file (`FILE:LINE:COL: json.path:`), else at the render in the manifest.
  static func checkDrawable(
    _ template: Template, variant: Manifest.Variant, render r: Int, manifest: Manifest
  ) throws(TemplateError) {
    let render = manifest.renders[r]
    do {
      try template.checkDrawable()
    } catch {
      guard variant.quotable else {
        throw unshown(variant, manifest: manifest, template: render.template, problem: "cannot draw with these values")
      }
      if let site = template.site(of: error) { throw site.error(error.description) }
      throw TemplateError(
        file: manifest.file, path: "renders[\(r)].template", line: render.position.line,
        column: render.position.column,
        message: "\(quoted: templateName(render.template)) cannot draw: \(escaped: error.description)")
    }
  }

  /// Refuses job `name` of render `r` when its `frames` frames of `width × height` pixels, each
  /// drawn `samples` times, pass the pixel, frame or work cap of `caps`
  /// (``FlickVideo/RenderLimits/check(frames:width:height:samples:part:smaller:)``, the check every render
  /// makes before it starts).
  ///
  /// - Throws: ``FlickTemplates/TemplateError`` at the render in the manifest.
  static func checkCaps(
    _ caps: RenderLimits, frames: Int, width: Int, height: Int, samples: Int, job name: String, render r: Int,
    manifest: Manifest
  ) throws(TemplateError) {
    do {
      try caps.check(frames: frames, width: width, height: height, samples: samples)
    } catch {
      let render = manifest.renders[r]
      throw TemplateError(
        file: manifest.file, path: "renders[\(r)]", line: render.position.line, column: render.position.column,
        message: "the job '\(quoted: name)': \(escaped: error.description)")
    }
  }

  /// Refuses size `s` of render `r` when the frames it gives, `width × height` pixels at `scale`
  /// times `template`'s canvas, cannot be rendered: a side under 1 pixel or over 16384 (a scale
  /// such as `1e-300` rounds to 0×0), or a size an encoder of `formats` refuses
  /// (``FlickVideo/RenderLimits/encoderRefuses(_:width:height:)``). A worker checks the same
  /// before it starts; here it is found when the plan is made, at the size in the manifest.
  ///
  /// - Throws: ``FlickTemplates/TemplateError`` at the size (at the render when it gave none).
  static func checkSize(
    width: Int, height: Int, scale: Double, of template: Template, formats: [OutputFormat], render r: Int,
    size s: Int, manifest: Manifest
  ) throws(TemplateError) {
    let canvas = template.scene.size
    var problem: String?
    if !(1...16384).contains(width) || !(1...16384).contains(height) {
      problem = Renderer.sideRefusal(canvas: canvas, scale: "the scale")
    } else if let refusal = formats.lazy.compactMap({ RenderLimits.encoderRefuses($0, width: width, height: height) })
      .first
    {
      problem = refusal
    }
    guard let problem else { return }
    throw sizeError(
      render: r, size: s, manifest: manifest,
      message: "\(quoted: template.name)'s \(Int(canvas.width))×\(Int(canvas.height)) canvas at scale "
        + "\(TemplateNode.format(scale)) is \(width)×\(height) pixels; \(escaped: problem)")
  }

  /// The error `message` at size `s` of render `r` (at the render when it wrote no `sizes`: its
  /// own position then stands for its one size, the canvas's).
  private static func sizeError(render r: Int, size s: Int, manifest: Manifest, message: String) -> TemplateError {
    let render = manifest.renders[r]
    let written =
      render.sizePositions[s].line != render.position.line
      || render.sizePositions[s].column != render.position.column
    return TemplateError(
      file: manifest.file, path: written ? "renders[\(r)].sizes[\(s)]" : "renders[\(r)]",
      line: render.sizePositions[s].line, column: render.sizePositions[s].column, message: message)
  }

  /// Refuses size `s` of render `r` when an output format of the render refuses its `encoding`
  /// for frames of `width × height` of `template`, `frames` frames at its rate: the rules
  /// `flick render` and a worker run before they draw
  /// (``FlickVideo/FFmpegCommand/refusal(format:width:height:options:canvas:spelling:)``: a CRF
  /// outside H.264's 1…51, odd sides for an MP4 without `pad`;
  /// ``FlickVideo/FrameSchedule/refusal(renderFPS:frames:format:options:spelling:)``: a
  /// `gifFps` above the render's rate or one that keeps no frame), named by the manifest's keys.
  ///
  /// - Throws: ``FlickTemplates/TemplateError`` at the `encoding` key (at the size for odd
  ///   sides, at the render when the key was not written).
  static func checkEncoding(
    width: Int, height: Int, of template: Template, frames: Int, render r: Int, size s: Int, manifest: Manifest
  ) throws(TemplateError) {
    let render = manifest.renders[r]
    let scene = template.scene
    for format in render.formats {
      guard
        let refusal = FFmpegCommand.refusal(
          format: format, width: width, height: height, options: render.encoding, canvas: scene.size,
          spelling: .manifest)
          ?? FrameSchedule.refusal(
            renderFPS: scene.fps, frames: frames, format: format, options: render.encoding, spelling: .manifest)
      else { continue }
      if refusal.setting == .size {
        throw sizeError(
          render: r, size: s, manifest: manifest,
          message: "the \(format.rawValue) output of '\(quoted: template.name)' at \(width)×\(height) pixels: "
            + "\(escaped: refusal.reason)")
      }
      let key = EncoderRefusal.Spelling.key(refusal.setting)
      let at = key.flatMap { render.encodingPositions[$0] }
      throw TemplateError(
        file: manifest.file, path: at != nil ? "renders[\(r)].encoding.\(escaped: key ?? "")" : "renders[\(r)]",
        line: at?.line ?? render.position.line, column: at?.column ?? render.position.column,
        message: "the \(format.rawValue) output of '\(quoted: template.name)' at \(width)×\(height): "
          + "\(escaped: refusal.reason)")
    }
  }

  /// The error for values from a file outside the manifest's folder (allowed by
  /// `--allow-outside-manifest`) that `template` refuses: where the values come from, never what
  /// that file holds.
  static func unshown(
    _ variant: Manifest.Variant, manifest: Manifest, template: String, problem: String
  ) -> TemplateError {
    TemplateError(
      file: variant.row?.file ?? variant.files.first ?? manifest.file, path: "", line: variant.row?.line ?? 0,
      column: variant.row == nil ? 0 : 1,
      message: "\(quoted: templateName(template)) \(escaped: problem) "
        + "(this file is outside the manifest's folder, so its text is not shown)")
  }

  /// The error for size `s` of render `r`, whose outputs (`base`: render/variant/WxH) the size
  /// `first.size` of render `first.render` already plans: two sizes of one render that come to
  /// the same pixels (`"640x360"` and `1`), or two renders with the same name, or names that
  /// differ only by case (`A` and `a`: one folder where case is ignored).
  static func collision(
    first: (render: Int, size: Int, base: String), render r: Int, size s: Int, base: String, manifest: Manifest
  ) -> TemplateError {
    let same = r == first.render
    let at = same ? manifest.renders[r].sizePositions[s] : manifest.renders[r].position
    let path = same ? "renders[\(r)].sizes[\(s)]" : "renders[\(r)]"
    let message: String
    if first.base != base {
      // Paths that differ only by case (render names `A` and `a`).
      message =
        "this render plans the outputs \(quoted: base), which differ only by case from those of "
        + "renders[\(first.render)] (\(quoted: first.base)): on a file system that ignores case (macOS, Windows) "
        + "they are the same files; give one of them another 'name'"
    } else {
      message =
        same
        ? "this size comes to the same pixels as sizes[\(first.size)] (\(quoted: base)); each size must differ"
        : "this render plans the same outputs (\(quoted: base)) as renders[\(first.render)]; "
          + "give one of them another 'name'"
    }
    return TemplateError(file: manifest.file, path: path, line: at.line, column: at.column, message: message)
  }

  /// Refuses the plan when an output of a job or merge would replace a file the batch reads
  /// (``inputs``): a render named after its own template (`template: "t/default/64x64.gif"` with
  /// `output: "."`), or a PNG sequence over a picture. `flick plan` refuses it before writing the
  /// plan, and `run`, `merge` and `status` plan again, so it is refused there too.
  ///
  /// - Throws: ``FlickTemplates/TemplateError`` at `output` in the manifest, naming both.
  func refuseOutputsOverInputs() throws(TemplateError) {
    do {
      try RenderSession.refuse(jobs.flatMap(\.targets) + merges.flatMap(\.targets), over: inputs)
    } catch {
      throw TemplateError(
        file: manifest.file, path: "output", line: manifest.outputPosition.line,
        column: manifest.outputPosition.column, message: "\(escaped: error.description)")
    }
  }
}
