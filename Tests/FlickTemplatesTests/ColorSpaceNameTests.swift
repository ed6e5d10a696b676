import FlickExpectations
import FlickMotion
import Testing

@testable import FlickTemplates

/// `colorSpace` takes exactly the three names of ``ColorSpace``.
@Suite struct ColorSpaceNameTests {
  @Test func decodesTheThreeNames() throws {
    let names = ["sRGB": ColorSpace.sRGB, "linear": .linearSRGB, "oklab": .oklab]
    for (name, space) in names {
      let node = TemplateNode(value: try JSON5Parser.parse("\"\(name)\""), path: "colorSpace", file: "t")
      try expectEqual(node.colorSpace(), space)
    }
    let bad = TemplateNode(value: try JSON5Parser.parse("\"okLab\""), path: "colorSpace", file: "t")
    #expect(throws: TemplateError.self) { try bad.colorSpace() }
  }
}
