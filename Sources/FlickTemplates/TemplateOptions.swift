/// How a template is loaded, beyond its parameters.
public struct TemplateOptions: Sendable, Equatable {
  /// Accept image and font paths that leave the template's folder (`--allow-outside-assets`).
  /// Off by default, so a template received from elsewhere cannot read arbitrary files.
  public var allowOutsideAssets: Bool

  public init(allowOutsideAssets: Bool = false) {
    self.allowOutsideAssets = allowOutsideAssets
  }
}
