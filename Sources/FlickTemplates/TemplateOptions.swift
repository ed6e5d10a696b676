/// How a template is loaded, beyond its parameters.
public struct TemplateOptions: Sendable, Equatable {
  /// Accept image and font paths that leave the template's folder (`--allow-outside-assets`).
  /// Off by default, so a template received from elsewhere cannot read arbitrary files.
  public var allowOutsideAssets: Bool
  /// Caps on the file, its expansion, its text and its images.
  public var limits: TemplateLimits
  /// What a message about an asset outside the template's folder tells the user to do: pass
  /// `--allow-outside-assets` by default; a command without that option (`flick studio`, which
  /// never reads outside its folder) words its own.
  package var outsideRemedy = AssetProblem.allowOutsideRemedy
  /// Where the files the template names are recorded as they resolve (nil: not recorded).
  package var assetLog: AssetLog?
  /// The scene's frame rate in frames per second, replacing the canvas's `fps` (`flick render
  /// --fps`, a manifest's `fps`); nil keeps the template's. The rate is decided here, as the
  /// template is decoded: nothing changes it afterwards.
  package var fps: Int?
  /// Told the canvas and then the layers as soon as each is decoded (nil: nobody is).
  package var decodeObserver: DecodeObserver?
  /// Whether ``Template/angleWarnings`` is filled, from the tree the text was parsed into once.
  package var collectsAngleWarnings = false

  public init(allowOutsideAssets: Bool = false, limits: TemplateLimits = TemplateLimits()) {
    self.allowOutsideAssets = allowOutsideAssets
    self.limits = limits
  }
}
