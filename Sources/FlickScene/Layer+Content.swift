import FlickMotion

extension Layer {
  /// The shape content, if this is a shape layer.
  public var shape: ShapeContent? {
    if case .shape(let s) = content { return s }
    return nil
  }
  /// The text content, if this is a text layer.
  public var text: TextContent? {
    if case .text(let t) = content { return t }
    return nil
  }
  /// The gradient content, if this is a gradient layer.
  public var gradient: GradientContent? {
    if case .gradient(let g) = content { return g }
    return nil
  }

  /// Edits the shape content; does nothing on other kinds.
  public mutating func withShape(_ body: (inout ShapeContent) -> Void) {
    guard case .shape(var s) = content else { return }
    body(&s)
    content = .shape(s)
  }
  /// Edits the text content; does nothing on other kinds.
  public mutating func withText(_ body: (inout TextContent) -> Void) {
    guard case .text(var t) = content else { return }
    body(&t)
    content = .text(t)
  }
  /// Edits the gradient content; does nothing on other kinds.
  public mutating func withGradient(_ body: (inout GradientContent) -> Void) {
    guard case .gradient(var g) = content else { return }
    body(&g)
    content = .gradient(g)
  }
}
