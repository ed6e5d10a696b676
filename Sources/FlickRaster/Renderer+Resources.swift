import FlickScene

extension Renderer {
  /// Checks, without drawing, that everything `tree` needs can be loaded: every `contents`
  /// picture decodes (and is then cached for drawing) and every text layer's font family is
  /// installed or comes from one of the tree's font files. Call it before starting a long render to fail early with a precise message.
  ///
  /// - Throws: ``RasterError/unreadableFont(path:reason:)`` for the first font file that cannot
  ///   be loaded, else the first ``RasterError/unreadableImage(path:reason:)``,
  ///   ``RasterError/textUnavailable(layerID:reason:)`` or
  ///   ``RasterError/missingFontFamily(family:layerID:fallback:)`` found, in tree order.
  public func checkResources(of tree: RenderTree) throws(RasterError) {
    try FontRegistry.register(tree.fontFiles)
    for layer in LayersInTreeOrder(tree.layers) {
      if let image = layer.contents {
        if SVGStore.isSVG(image.path) {
          try SVGStore.check(image.path)
        } else {
          _ = try ImageStore.image(at: image.path)
        }
      }
      if let lottie = layer.lottie { try LottieStore.check(lottie.path) }
      if let text = layer.text {
        try Pango.require(for: layer.id)
        if !FontCatalog.isAvailable(text.fontFamily) {
          throw .missingFontFamily(
            family: text.fontFamily, layerID: layer.id, fallback: FontCatalog.fallback(for: text.fontFamily))
        }
      }
    }
  }
}
