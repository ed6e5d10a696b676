import FlickMotion
import FlickScene
import Foundation

/// The bitmap pictures of a scene's layers decoded on a thread of their own while the template
/// compiles (`flick still`, told the layers by the template's `DecodeObserver`): the template's
/// check and the frame then find them decoded (the process's picture store waits for a decode in
/// progress rather than start a second one). The same decoded pixels, sooner.
///
/// Only pictures the template's decode has accepted are given: inside the template's folder
/// (unless allowed outside) and within its pixel cap, read from the file's header. A picture
/// that fails to decode here is decoded again by the check, which reports it.
package final class PicturePrefetch: Sendable {
  private let helper = Locked<HelperThread?>(nil)

  package init() {}

  /// Starts decoding the bitmap pictures (`contents` that is not SVG) of `layers`, their
  /// sublayers and masks, each path once; nothing when there are none, on a machine with one
  /// core, or when one was started already.
  package func start(_ layers: [Layer]) {
    var paths: [String] = []
    for layer in LayersInTreeOrder(layers) {
      if let image = layer.contents, !SVGStore.isSVG(image.path), !paths.contains(image.path) {
        paths.append(image.path)
      }
    }
    guard !paths.isEmpty, MachineCPUs.usable >= 2 else { return }
    helper.withLock { helper in
      guard helper == nil else { return }
      helper = HelperThread.start {
        for path in paths { _ = try? ImageStore.image(at: path) }
      }
    }
  }

  /// Waits for the decoding to end (at once when none was started).
  package func finish() {
    helper.withLock { helper in
      helper?.join()
      helper = nil
    }
  }
}
