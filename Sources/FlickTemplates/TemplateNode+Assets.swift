internal import FlickRaster

extension TemplateNode {
  /// An asset path (image, font file): a string relative to the template's folder, resolved,
  /// checked against the asset policy (`--allow-outside-assets`) and required to exist.
  ///
  /// Layer decoders call this for every field that names a file, so the policy holds everywhere.
  ///
  /// - Parameter kind: What the file is, for messages ("image", "font").
  /// - Returns: The canonical absolute path of the file.
  func assetPath(kind: String = "asset") throws(TemplateError) -> String {
    let written = try string()
    switch context.resolveAsset(written) {
    case .success(let path): return path
    case .failure(let problem):
      throw error(problem.message(kind: kind, written: written, remedy: context.outsideRemedy))
    }
  }

  /// A font file asset (.ttf, .otf or .ttc), resolved as ``assetPath(kind:)`` and read far
  /// enough to know its family names: once per template load (``TemplateFontFiles``), and only
  /// while the load has read fewer than ``TemplateLimits/maximumFontFiles`` other files.
  ///
  /// - Returns: The canonical absolute path and the file's families, the preferred one first.
  func fontFile() throws(TemplateError) -> (path: String, families: [String]) {
    let written = try string()
    guard TemplateParameter.isFontFile(written) else {
      throw error("expected a font file (.ttf, .otf or .ttc), found \"\(quoted: written)\"")
    }
    let path = try assetPath(kind: "font")
    let reads = context.fontReads
    if let families = reads?.families(at: path) { return (path, families) }
    if let reads, reads.count >= TemplateLimits.maximumFontFiles {
      throw error(
        "font \"\(quoted: written)\": a template may use at most \(TemplateLimits.maximumFontFiles) different font "
          + "files")
    }
    do {
      let families = try FontFile.families(at: path)
      reads?.record(path, families: families)
      return (path, families)
    } catch {
      throw self.error("font \"\(quoted: written)\": '\(quoted: path)' is not a usable font: \(escaped: error.reason)")
    }
  }
}
