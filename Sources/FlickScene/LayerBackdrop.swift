import FlickMotion

/// A backdrop material, as iOS materials (`UIVisualEffectView`, `CABackdropLayer`) draw it: what
/// is already drawn behind the layer, blurred, saturated and tinted, filling the layer's rounded
/// bounds below its background. "Behind" means what the same surface holds when the layer is
/// drawn: the frame, or the offscreen group of an ancestor with an opacity below 1 or a mask
/// (as a group isolates its content in Core Animation too).
///
/// The presets follow the look of Apple's materials on a light background; their numbers are
/// documented in docs/layers.md and fixed here:
///
/// | preset       | blur (pt) | saturation | tint                 |
/// |--------------|-----------|------------|----------------------|
/// | `ultraThin`  | 10        | 1.6        | white, alpha 0.20    |
/// | `thin`       | 15        | 1.7        | white, alpha 0.35    |
/// | `regular`    | 20        | 1.8        | white, alpha 0.50    |
/// | `thick`      | 25        | 1.9        | white, alpha 0.70    |
/// | `chrome`     | 20        | 1.5        | #F2F2F7, alpha 0.80  |
public struct LayerBackdrop: Sendable, Hashable {
  /// Standard deviation of the Gaussian blur of the backdrop, in points (`0…250`); 0 does not blur.
  public var blurRadius: Double
  /// Colour saturation of the blurred backdrop: 0 grey, 1 unchanged, above 1 more vivid (`0…4`).
  public var saturation: Double
  /// Painted over the blurred, saturated backdrop (its alpha is its strength); `.clear` for none.
  public var tint: Color

  public init(
    blurRadius: Double = 20, saturation: Double = 1.8, tint: Color = Color(red: 1, green: 1, blue: 1, alpha: 0.5)
  ) {
    self.blurRadius = blurRadius
    self.saturation = saturation
    self.tint = tint
  }

  /// A named material like UIKit's `UIBlurEffect.Style` (`.systemUltraThinMaterial` …).
  public enum Material: String, Sendable, CaseIterable {
    case ultraThin, thin, regular, thick, chrome
  }

  /// The numbers of a named material (see the table above).
  public init(_ material: Material) {
    switch material {
    case .ultraThin: self.init(blurRadius: 10, saturation: 1.6, tint: Color(red: 1, green: 1, blue: 1, alpha: 0.2))
    case .thin: self.init(blurRadius: 15, saturation: 1.7, tint: Color(red: 1, green: 1, blue: 1, alpha: 0.35))
    case .regular: self.init(blurRadius: 20, saturation: 1.8, tint: Color(red: 1, green: 1, blue: 1, alpha: 0.5))
    case .thick: self.init(blurRadius: 25, saturation: 1.9, tint: Color(red: 1, green: 1, blue: 1, alpha: 0.7))
    case .chrome:
      self.init(
        blurRadius: 20, saturation: 1.5,
        tint: Color(red: 242.0 / 255, green: 242.0 / 255, blue: 247.0 / 255, alpha: 0.8))
    }
  }
}
