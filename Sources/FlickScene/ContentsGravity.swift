import FlickMotion

/// How a layer's `contents` image is fitted into its bounds (Core Animation's `contentsGravity`).
/// Directions are as seen on screen (y down): `.top` keeps the image's top edge at the top.
public enum ContentsGravity: String, Sendable, Hashable, CaseIterable {
  /// Natural size, centred.
  case center
  /// Natural size, centred horizontally, at the top.
  case top
  /// Natural size, centred horizontally, at the bottom.
  case bottom
  /// Natural size, centred vertically, at the left.
  case left
  /// Natural size, centred vertically, at the right.
  case right
  /// Natural size in the top-left corner.
  case topLeft
  /// Natural size in the top-right corner.
  case topRight
  /// Natural size in the bottom-left corner.
  case bottomLeft
  /// Natural size in the bottom-right corner.
  case bottomRight
  /// Stretched to fill the bounds exactly (Core Animation's default).
  case resize
  /// Scaled to fit inside the bounds, keeping its aspect ratio (letterboxed).
  case resizeAspect
  /// Scaled to cover the bounds, keeping its aspect ratio (cropped by `masksToBounds`).
  case resizeAspectFill
}

extension ContentsGravity {
  /// Where an image of `imageSize` points is drawn inside `bounds` (may extend outside it).
  public func rect(forImageOf imageSize: Size, in bounds: Rect) -> Rect {
    let w = imageSize.width
    let h = imageSize.height
    guard w > 0, h > 0 else { return bounds }
    func at(_ fx: Double, _ fy: Double, _ width: Double, _ height: Double) -> Rect {
      Rect(
        x: bounds.minX + (bounds.width - width) * fx, y: bounds.minY + (bounds.height - height) * fy,
        width: width, height: height)
    }
    switch self {
    case .center: return at(0.5, 0.5, w, h)
    case .top: return at(0.5, 0, w, h)
    case .bottom: return at(0.5, 1, w, h)
    case .left: return at(0, 0.5, w, h)
    case .right: return at(1, 0.5, w, h)
    case .topLeft: return at(0, 0, w, h)
    case .topRight: return at(1, 0, w, h)
    case .bottomLeft: return at(0, 1, w, h)
    case .bottomRight: return at(1, 1, w, h)
    case .resize: return bounds
    case .resizeAspect:
      let s = min(bounds.width / w, bounds.height / h)
      return at(0.5, 0.5, w * s, h * s)
    case .resizeAspectFill:
      let s = max(bounds.width / w, bounds.height / h)
      return at(0.5, 0.5, w * s, h * s)
    }
  }
}
