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
  /// (``FlickVideo/RenderLimits/check(frames:width:height:samples:)``, the check every render
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
}
