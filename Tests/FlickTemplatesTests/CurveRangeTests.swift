import FlickExpectations
import Testing

@testable import FlickTemplates

/// Templates read `curve:` with the parser `flick curve` uses, so a spec whose motion
/// overflows is refused at its place in the file; the `[x1, y1, x2, y2]` form too.
@Suite struct CurveRangeTests {
  static func error(_ curve: String) -> TemplateError? {
    do {
      _ = try Template.decode(
        """
        { flick: 1, canvas: { width: 64, height: 64, duration: 1 }, layers: [ { id: "a", size: [10, 10] } ],
          timeline: [ { target: "a", animate: { positionX: 10 }, duration: 1, curve: \(curve) } ] }
        """, file: "c.json5")
      return nil
    } catch {
      return error as? TemplateError
    }
  }

  @Test func anOverflowingSpecIsRefusedWhereItIsWritten() throws {
    let e = try #require(Self.error(#""backOut(overshoot: 1e308)""#))
    expectEqual(e.file, "c.json5")
    expectEqual(e.path, "timeline[0].curve")
    expectEqual(e.line, 2)
    expectEqual(e.column, 79)
    #expect(
      e.message.hasPrefix(
        #"invalid animation spec "backOut(overshoot: 1e308)": this motion's numbers are out of range"#), "\(e.message)")
  }

  @Test func anOverflowingBezierIsRefused() throws {
    let e = try #require(Self.error("[0.5, 1e200, 0.5, 1]"))
    expectEqual(e.path, "timeline[0].curve")
    #expect(e.message.hasPrefix("invalid curve: this motion's numbers are out of range"), "\(e.message)")
    #expect(Self.error("[0.5, -3, 0.5, 4]") == nil)
  }
}
