import FlickMotion
import FlickScene
import Foundation
import Testing

/// The property catalogue is the one list of animatable properties: names are unique, every
/// typed property reads back what it writes, the state groups come from it, and the table in
/// docs/layers.md is exactly the catalogue.
@Suite struct PropertyCatalogueTests {
  static let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("docs/layers.md")

  /// One docs row per descriptor: `| name | value | unit | layer | part of |`.
  static func row(_ d: LayerPropertyDescriptor) -> String {
    "| `\(d.name)` | \(d.property.valueTypeName) | \(d.unit.rawValue) | \(d.contentKind?.rawValue ?? "any") | "
      + (d.partOf.map { "`\($0)`" } ?? "") + " |"
  }

  @Test func namesAreUniqueAndLookUpsAgree() {
    let names = LayerPropertyDescriptor.catalogue.map(\.name)
    #expect(Set(names).count == names.count)
    #expect(AnyLayerProperty.names == names)
    for d in LayerPropertyDescriptor.catalogue {
      #expect(AnyLayerProperty.named(d.name)?.descriptor?.name == d.name)
      #expect(d.isAngle == d.name.hasPrefix("rotation"))
      if let root = d.partOf {
        #expect(LayerPropertyDescriptor.named(root)?.partOf == nil, "\(d.name) is part of a part")
        #expect(AnyLayerProperty.sameState(as: d.name).contains(root))
      }
    }
    #expect(AnyLayerProperty.sameState(as: "positionX") == ["position", "positionX", "positionY"])
    #expect(AnyLayerProperty.sameState(as: "opacity") == ["opacity"])
  }

  @Test func docsTableIsTheCatalogue() throws {
    let text = try String(contentsOf: Self.docs, encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let header = "| property | value | unit | layer | part of |"
    let start = try #require(lines.firstIndex(of: header), "docs/layers.md has no catalogue table")
    let rows = lines[(start + 2)...].prefix { $0.hasPrefix("|") }
    #expect(Array(rows) == LayerPropertyDescriptor.catalogue.map(Self.row))
  }
}
