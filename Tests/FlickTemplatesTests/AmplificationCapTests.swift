import FlickMotion
import FlickScene
@testable import FlickTemplates
import FlickExpectations
import Foundation
import Testing

/// Small templates that would draw without end: nested replicators (which multiply), components
/// full of replicators, and paths of hundreds of thousands of segments are refused with the
/// location of the part that passes the cap.
@Suite struct AmplificationCapTests {
  static let canvas = "canvas: { width: 100, height: 100, duration: 1 }"

  static func error(_ text: String) -> TemplateError? {
    do {
      _ = try Template.decode(text, file: "t.json5")
      return nil
    } catch {
      return error
    }
  }

  /// `levels` replicators of `count` copies, each inside the one before, around a dot.
  static func nested(_ levels: Int, count: Int) -> String {
    var layer = "{ id: 'dot', size: [1, 1], backgroundColor: '#f00' }"
    for level in (0..<levels).reversed() {
      layer = "{ id: 'r\(level)', size: [10, 10], instanceCount: \(count), sublayers: [\(layer)] }"
    }
    return "{ flick: 1, \(canvas), layers: [\(layer)] }"
  }

  @Test func nestedReplicatorsAreRefusedAtTheReplicatorThatPassesTheCap() throws {
    // Replicators of 22 copies: three of them nested stay within the drawing depth
    // (Layer.maximumDrawingDepth counts each copy's holder levels), and pass the copy cap.
    for levels in [3, 4] {
      let e = try #require(Self.error(Self.nested(levels, count: 22)))
      // The innermost replicator is 22 copies of a dot (22), the next 22 copies of 23 layers
      // (506), the next 22 copies of 507 (11,154 > 10,000): that one is named.
      let depth = levels - 3
      let path = "layers[0]" + String(repeating: ".sublayers[0]", count: depth) + ".instanceCount"
      expectEqual(e.path, path, "\(e)")
      expectEqual(e.file, "t.json5")
      expectEqual(e.line, 1)
      expectGreater(e.column, 1)
      #expect(e.message.contains("replicators draw 11154 layer copies"), "\(e.message)")
      #expect(e.message.contains("cap of 10000"), "\(e.message)")
    }
  }

  @Test func replicatorsWithinTheCapLoad() throws {
    let t = try Template.decode(Self.nested(3, count: 21), file: "t.json5")
    expectEqual(t.scene.replicatedLayerCount, 21 + 21 * 21 + 21 * 21 * 21)
  }

  @Test func siblingReplicatorsCountTogether() throws {
    let layers = (0..<101).map { "{ id: 'r\($0)', instanceCount: 100, sublayers: [{ id: 'd\($0)', size: [1, 1] }] }" }
    let e = try #require(Self.error("{ flick: 1, \(Self.canvas), layers: [\(layers.joined(separator: ", "))] }"))
    expectEqual(e.path, "layers[100]", "\(e)")
    #expect(e.message.contains("replicators draw 10100 layer copies"), "\(e.message)")
  }

  @Test func componentsHoldingReplicatorsMultiply() throws {
    // Each instance of the component is 100 copies of a dot; 101 instances pass the cap, as do
    // two replicators of 22 copies around one instance of a component of 22 (11,154 layers).
    let component =
      "components: { fan: { layer: { size: [10, 10], instanceCount: 100, "
      + "sublayers: [{ id: 'dot', size: [1, 1] }] } } }"
    let uses = (0..<101).map { "{ id: 'f\($0)', use: 'fan' }" }.joined(separator: ", ")
    let flat = try #require(Self.error("{ flick: 1, \(Self.canvas), \(component), layers: [\(uses)] }"))
    #expect(flat.path.hasPrefix("layers[100]"), "\(flat)")
    #expect(flat.message.contains("10100 layer copies"), "\(flat)")
    let small =
      "components: { fan: { layer: { size: [10, 10], instanceCount: 22, "
      + "sublayers: [{ id: 'dot', size: [1, 1] }] } } }"
    let inside = try #require(
      Self.error(
        "{ flick: 1, \(Self.canvas), \(small), layers: [{ id: 'outer', instanceCount: 22, sublayers: "
          + "[{ id: 'mid', instanceCount: 22, sublayers: [{ id: 'f', use: 'fan' }] }] }] }"))
    expectEqual(inside.path, "layers[0].instanceCount", "\(inside)")
    #expect(inside.message.contains("replicators draw 11154 layer copies"), "\(inside.message)")
  }

  // MARK: - Path segments

  static func polyline(_ points: Int) -> String {
    "M0 0" + (1..<points).map { " L\($0 % 100) \($0 % 7)" }.joined()
  }

  @Test func aPathOverTheSegmentCapIsALocatedError() throws {
    let cap = TemplateLimits.maximumPathSegments
    let ok = "{ flick: 1, \(Self.canvas), layers: [{ id: 's', type: 'shape', path: '\(Self.polyline(cap))' }] }"
    #expect(Self.error(ok) == nil)
    for (key, extra) in [("path", "type: 'shape'"), ("shadowPath", "shadowOpacity: 1")] {
      let text = "{ flick: 1, \(Self.canvas), layers: [{ id: 's', \(extra), \(key): '\(Self.polyline(cap + 1))' }] }"
      let e = try #require(Self.error(text))
      expectEqual(e.path, "layers[0].\(key)", "\(e)")
      #expect(e.message.contains("more than \(cap) path elements"), "\(e.message)")
    }
  }

  @Test func pathSegmentsDrawnPerFrameAreCappedOverTheTemplate() throws {
    // Twenty 10,000-segment paths are 200,000 (the cap); a replicator of 21 copies of one passes it.
    let path = Self.polyline(TemplateLimits.maximumPathSegments)
    let ten = (0..<20).map { "{ id: 's\($0)', type: 'shape', path: '\(path)' }" }.joined(separator: ", ")
    #expect(Self.error("{ flick: 1, \(Self.canvas), layers: [\(ten)] }") == nil)
    let copies = "{ id: 'r', instanceCount: 21, sublayers: [{ id: 's', type: 'shape', path: '\(path)' }] }"
    let e = try #require(Self.error("{ flick: 1, \(Self.canvas), layers: [\(copies)] }"))
    expectEqual(e.path, "layers[0]", "\(e)")
    #expect(e.message.contains("210000 segments drawn per frame"), "\(e.message)")
    #expect(e.message.contains("cap of 200000"), "\(e.message)")
  }
}
