@testable import FlickTemplates
import FlickMotion
import FlickExpectations
import Foundation
import Testing

/// Numbers written inside text (an angle's degrees, a `--set` value, an SVG outline's numbers)
/// are read by one decimal grammar (``DecimalText``): `Double(String)` alone would also take
/// hexadecimal floats (`0x10` is 16), `nan`, `inf` and surrounding text.
@Suite struct DecimalReadingTests {
  @Test func theGrammar() {
    for (text, value) in [("7", 7.0), ("-4.5", -4.5), ("+4", 4), (".5", 0.5), ("5.", 5), ("1E2", 100), ("1e-2", 0.01)] {
      expectEqual(DecimalText.value(text), value, "\(text)")
    }
    for bad in [
      "", "+", ".", "..", "1.2.3", "0x10", "0x1p4", "nan", "NaN", "inf", "infinity", "1e", "1e+", " 1", "1 ", "1e999",
      "١",
    ] {
      #expect(DecimalText.value(bad) == nil, "\(bad)")
    }
  }

  /// A command-line option's number is the same grammar without a leading `+` (`--fps +30`).
  @Test func optionValuesAreTheGrammarWithoutAPlus() {
    for (text, value) in [("30", 30.0), ("-0.5", -0.5), (".5", 0.5), ("1e3", 1000)] {
      expectEqual(DecimalText.optionValue(text), value, "\(text)")
    }
    for bad in ["+5", "+0.5", "0x10", "nan", "inf", " 5", "1e999", ""] {
      #expect(DecimalText.optionValue(bad) == nil, "\(bad)")
    }
  }

  /// The degree syntax reads exactly the decimal grammar (`Double(String)` alone would take hex floats).
  @Test func degreesReadOnlyDecimals() {
    expectEqual(TemplateNode.degrees("90deg"), 90)
    expectEqual(TemplateNode.degrees("+1e2deg"), 100)
    expectEqual(TemplateNode.degrees(".5deg"), 0.5)
    expectEqual(TemplateNode.degrees("5.deg"), 5)
    for bad in ["0x10deg", "0x1p4deg", "nandeg", "infdeg", " 90deg", "90 deg", "1e999deg", "deg"] {
      #expect(TemplateNode.degrees(bad) == nil, "\(bad)")
    }
  }

  /// A `--set` number is a decimal number: hex floats, `nan` and `inf` stay text and are refused.
  @Test func setValuesReadOnlyDecimals() throws {
    let p = TemplateParameter(name: "n", kind: .number)
    for good in ["2.5", "-1e3", " 7 ", "+4", ".5"] {
      let v = try p.value(fromText: good, relativeTo: "/")
      #expect(v.kind.isNumber, "\(good)")
    }
    for bad in ["0x10", "0x1p4", "nan", "inf", "-infinity", "1e999", "1 2"] {
      let v = try p.value(fromText: bad, relativeTo: "/")
      #expect(!v.kind.isNumber, "\(bad)")
    }
  }

  /// An SVG outline's numbers and lengths are decimal numbers too.
  @Test func svgNumbersReadOnlyDecimals() {
    func svg(_ width: String, _ viewBox: String) -> Data {
      Data(
        """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="10" viewBox="\(viewBox)">
          <path d="M0 0 L5 5"/>
        </svg>
        """.utf8)
    }
    #expect(throws: Never.self) { _ = try SVGShapeSource(data: svg("10", "0 0 10 10")) }
    #expect(throws: Never.self) { _ = try SVGShapeSource(data: svg("+10px", "0 0 1e1 10")) }
    #expect(throws: SVGShapeSource.Failure.self) { _ = try SVGShapeSource(data: svg("0x10", "0 0 10 10")) }
    #expect(throws: SVGShapeSource.Failure.self) { _ = try SVGShapeSource(data: svg("10", "0 0 0x10 10")) }
    #expect(throws: SVGShapeSource.Failure.self) { _ = try SVGShapeSource(data: svg("10", "0 0 nan 10")) }
  }
}

extension JSON5Value.Kind {
  fileprivate var isNumber: Bool {
    if case .number = self { return true }
    return false
  }
}
