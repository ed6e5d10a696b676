import FlickMotion

/// An immutable snapshot of a ``Scene`` at one instant: everything the rasteriser needs, nothing
/// it could change. `Sendable`, so raster workers on other threads can draw it.
public struct RenderTree: Sendable, Equatable {
  /// Canvas size in pixels.
  public let size: Size
  /// Colour behind every layer; `.clear` for a transparent frame.
  public let backgroundColor: Color
  /// Top-level layers with every animated property resolved.
  public let layers: [Layer]
  /// The scene time this snapshot was taken at, in seconds.
  public let time: Double
  /// Font files (absolute paths) to register before laying out text; see ``Scene/fontFiles``.
  public let fontFiles: [String]
  /// With motion blur, the scene at each instant the shutter is open (the frame is their average
  /// in linear light); empty when the frame is one instant. See ``MotionBlur``.
  public var shutterSamples: [RenderTree] = []
  /// What ``Scene/validate()`` refuses in the scene this tree was taken from (an unknown layer
  /// id, a target that is not a finite number, an illegal call), or nil: the renderer refuses to
  /// draw such a tree with the same message, so a still rendered without `validate()` is not
  /// silently wrong.
  public var problem: SceneError?

  public init(size: Size, backgroundColor: Color, layers: [Layer], time: Double, fontFiles: [String] = []) {
    self.size = size
    self.backgroundColor = backgroundColor
    self.layers = layers
    self.time = time
    self.fontFiles = fontFiles
  }
}

extension RenderTree {
  /// The layer with `id` anywhere in the tree (masks and their sublayers included), or nil.
  public func layer(id: String) -> Layer? {
    LayersInTreeOrder(layers).first { $0.id == id }
  }
}
