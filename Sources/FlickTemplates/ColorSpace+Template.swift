import FlickMotion

extension ColorSpace {
  /// The name a template writes (`"sRGB"`, `"linear"`, `"oklab"`).
  var templateName: String {
    switch self {
    case .sRGB: "sRGB"
    case .linearSRGB: "linear"
    case .oklab: "oklab"
    }
  }
}

extension TemplateNode {
  /// A colour space: `"sRGB"`, `"linear"` (linear-light sRGB) or `"oklab"`, the names
  /// ``ColorSpace/templateName`` gives.
  func colorSpace() throws(TemplateError) -> ColorSpace {
    let name = try string(oneOf: ColorSpace.allCases.map(\.templateName))
    guard let space = ColorSpace.allCases.first(where: { $0.templateName == name }) else {
      throw error("'\(quoted: name)' is not a colour space")  // string(oneOf:) allowed only these names
    }
    return space
  }
}
