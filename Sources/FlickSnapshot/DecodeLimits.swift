import FlickMotion
/// How large an image the snapshot tools agree to decode, checked from the PNG header (and the
/// file size) before any pixel memory is allocated.
///
/// A 1.5 MB PNG can declare 20000 × 20000 pixels (1.6 GB decoded); without a limit comparing two
/// of them takes most of a minute and gigabytes of memory. The defaults are far above any frame
/// Flick renders for review (8K is 33 megapixels) and far below what would hurt a CI machine.
///
/// Operators set them with `--max-image-pixels` / `--max-image-bytes` on `flick diff`,
/// `flick verify` and `flick accept`, or the environment variables `FLICK_MAX_IMAGE_PIXELS` and
/// `FLICK_MAX_IMAGE_BYTES` (the options win).
package struct DecodeLimits: Sendable, Equatable, Codable {
  /// The most pixels (width × height) an image may declare. Default 40 000 000.
  package var maxPixels: Int
  /// The largest PNG file, in bytes. Default 268 435 456 (256 MiB).
  package var maxFileBytes: Int

  package init(maxPixels: Int = 40_000_000, maxFileBytes: Int = 256 << 20) {
    self.maxPixels = maxPixels
    self.maxFileBytes = maxFileBytes
  }

  /// The defaults.
  package static let standard = DecodeLimits()

  /// Environment variable for ``maxPixels``.
  package static let pixelsVariable = "FLICK_MAX_IMAGE_PIXELS"
  /// Environment variable for ``maxFileBytes``.
  package static let bytesVariable = "FLICK_MAX_IMAGE_BYTES"

  /// The defaults overridden by `FLICK_MAX_IMAGE_PIXELS` / `FLICK_MAX_IMAGE_BYTES`.
  ///
  /// - Returns: The limits, or a message naming the variable whose value is not a whole number ≥ 1.
  package static func fromEnvironment(_ environment: [String: String]) -> Result<DecodeLimits, LimitError> {
    var limits = DecodeLimits()
    for (name, keyPath) in [(pixelsVariable, \DecodeLimits.maxPixels), (bytesVariable, \DecodeLimits.maxFileBytes)] {
      guard let text = environment[name], !text.isEmpty else { continue }
      // Read as every number Flick reads (FlickMotion's DecimalText), as the options are.
      guard let v = DecimalText.optionValue(text), v >= 1, v <= 1e15, v == v.rounded() else {
        return .failure(LimitError(message: "\(quoted: name) expects a whole number ≥ 1, found '\(quoted: text)'"))
      }
      limits[keyPath: keyPath] = Int(v)
    }
    return .success(limits)
  }

  /// A limit given with a bad value.
  package struct LimitError: Error, Sendable, CustomStringConvertible {
    package var message: String
    package var description: String { message }
  }
}
