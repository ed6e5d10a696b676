import FlickExpectations
import FlickScene
import Testing

/// ``TextContent/FontWeight/name`` is spelled out for speed; it must stay the case's own name,
/// which templates write and their schema lists.
@Suite struct FontWeightNameTests {
  @Test(arguments: TextContent.FontWeight.allCases)
  func theNameIsTheCasesName(_ weight: TextContent.FontWeight) {
    expectEqual(weight.name, "\(weight)")
  }
}
