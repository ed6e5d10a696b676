import FlickExpectations
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

  static let design = docs.deletingLastPathComponent().appendingPathComponent("design.md")
  static let root = docs.deletingLastPathComponent().deletingLastPathComponent()

  @Test func namesAreUniqueAndLookUpsAgree() {
    let names = LayerPropertyDescriptor.catalogue.map(\.name)
    expectEqual(Set(names).count, names.count)
    expectEqual(AnyLayerProperty.names, names)
    for d in LayerPropertyDescriptor.catalogue {
      expectEqual(AnyLayerProperty.named(d.name)?.descriptor?.name, d.name)
      expectEqual(d.isAngle, d.name.hasPrefix("rotation"))
      if let root = d.partOf {
        #expect(LayerPropertyDescriptor.named(root)?.partOf == nil, "\(d.name) is part of a part")
        #expect(AnyLayerProperty.sameState(as: d.name).contains(root))
      }
    }
    expectEqual(AnyLayerProperty.sameState(as: "positionX"), ["position", "positionX", "positionY"])
    expectEqual(AnyLayerProperty.sameState(as: "opacity"), ["opacity"])
  }

  @Test func docsTableIsTheCatalogue() throws {
    let text = try String(contentsOf: Self.docs, encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let table = LayerPropertyDescriptor.table
    let start = try #require(lines.firstIndex(of: table[0]), "docs/layers.md has no catalogue table")
    let rows = lines[start...].prefix { $0.hasPrefix("|") }
    expectEqual(Array(rows), table, "regenerate the table with `flick info --properties`")
  }

  /// Every row has storage: a value written through it reads back, on a layer of its kind, and
  /// through its key path where it has one.
  @Test func everyRowHasStorage() {
    func layer(_ kind: LayerContentKind?) -> Layer {
      switch kind {
      case .shape?: Layer(id: "s", content: .shape(ShapeContent(path: .rect(.zero))))
      case .text?: Layer(id: "t", content: .text(TextContent(string: "x")))
      case .gradient?: Layer(id: "g", content: .gradient(GradientContent(colors: [.black, .white])))
      case .lottie?:
        Layer(
          id: "l",
          content: .lottie(
            LottieContent(
              path: "x.json", size: Size(width: 9, height: 9), frameCount: 60,
              frameRate: 30, speed: 1)))
      case .none?, nil: Layer(id: "p")
      }
    }
    for d in LayerPropertyDescriptor.catalogue {
      var l = layer(d.contentKind)
      // A value inside the range, away from every default.
      let x = d.range.map { $0.lowerBound + min(0.375, ($0.upperBound - $0.lowerBound) / 2) } ?? 0.375
      switch d.property {
      case .double(let p):
        p.write(&l, x)
        expectLess(abs(p.read(l) - x), 1e-9, "\(d.name)")
        if let path = d.keyPath?.path as? WritableKeyPath<Layer, Double> { expectEqual(l[keyPath: path], p.read(l)) }
      case .point(let p):
        p.write(&l, Point(x: x, y: x / 2))
        expectEqual(p.read(l), Point(x: x, y: x / 2), "\(d.name)")
        if let path = d.keyPath?.path as? WritableKeyPath<Layer, Point> { expectEqual(l[keyPath: path], p.read(l)) }
      case .size(let p):
        p.write(&l, Size(width: x, height: x / 2))
        expectEqual(p.read(l), Size(width: x, height: x / 2), "\(d.name)")
      case .rect(let p):
        p.write(&l, Rect(x: 1, y: 2, width: x, height: x / 2))
        expectEqual(p.read(l), Rect(x: 1, y: 2, width: x, height: x / 2), "\(d.name)")
      case .color(let p):
        p.write(&l, Color(red: 0.25, green: 0.5, blue: 0.75))
        expectEqual(p.read(l), Color(red: 0.25, green: 0.5, blue: 0.75), "\(d.name)")
      case .colors(let p):
        p.write(&l, [.white, .black, .white])
        expectEqual(p.read(l), [.white, .black, .white], "\(d.name)")
      }
    }
  }

  /// docs/design.md names the files adding an animatable property touches: four, each exists.
  @Test func designListsTheFilesToTouch() throws {
    let text = try String(contentsOf: Self.design, encoding: .utf8)
    let intro = try #require(text.range(of: "Adding an animatable property touches these four files"))
    let list = text[intro.upperBound...].split(separator: "\n").drop { !$0.hasPrefix("- ") }
      .prefix { $0.hasPrefix("- ") || $0.hasPrefix("  ") }
    // Each item: a Swift file from the package root, then other files in the same folder.
    var items: [[String]] = []
    for line in list {
      if line.hasPrefix("- ") { items.append([]) }
      var rest = line[...]
      while let open = rest.firstIndex(of: "`") {
        let after = rest[rest.index(after: open)...]
        guard let close = after.firstIndex(of: "`") else { break }
        let name = String(after[..<close])
        if name.hasSuffix(".swift") { items[items.count - 1].append(name) }
        rest = after[after.index(after: close)...]
      }
    }
    expectEqual(items.count, 4, "\(list)")
    for names in items {
      let first = try #require(names.first, "an item names no file")
      let file = Self.root.appendingPathComponent(first)
      #expect(FileManager.default.fileExists(atPath: file.path), "\(first)")
      for name in names.dropFirst() {
        let sibling = file.deletingLastPathComponent().appendingPathComponent(name)
        #expect(FileManager.default.fileExists(atPath: sibling.path), "\(name) next to \(first)")
      }
    }
  }
}
