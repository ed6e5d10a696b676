import FlickRaster
import FlickTemplates

/// Renders one frame of a template, for tests that probe pixels.
///
/// - Parameters:
///   - path: The template file.
///   - time: Scene time in seconds.
/// - Throws: ``TemplateError`` or ``RasterError``.
public func renderStill(templateAt path: String, time: Double) throws -> Frame {
  let template = try Template.load(path: path)
  return try Renderer().render(template.scene.renderTree(at: time))
}
