import FlickExpectations
import Testing

@testable import FlickTemplates

/// JSON5 hex numbers have any number of digits, and read as JavaScript reads them: the nearest
/// `Double`. `0x10000000000000000` (2⁶⁴) was refused as "expected hex digits", as more than 64
/// bits did not fit the `UInt64` it was read into. The expected values are Python's
/// `float(int(digits, 16))`, which rounds correctly (to even on a tie).
@Suite struct JSON5HexNumberTests {
  static func number(_ text: String) throws -> Double? {
    if case .number(let d) = try JSON5Parser.parse(text).kind { return d }
    return nil
  }

  @Test(
    arguments: [
      ("0x10000000000000000", 0x1p64),
      ("0xFFFFFFFFFFFFFFFF", 0x1p64),
      ("0x1FFFFFFFFFFFFF", 0x1.fffffffffffffp52),
      // 2⁵³ + 1 is a tie: to even, down; 2⁵³ + 3 up.
      ("0x20000000000001", 0x1p53),
      ("0x20000000000003", 0x1.0000000000002p53),
      // A tie in the first 16 digits that later digits break: up.
      ("0x20000000000001000000000000001", 0x1.0000000000001p113),
      ("0x80000000000004000001", 0x1.0000000000001p79),
      ("0x80000000000004000000", 0x1p79),
      ("0x8000000000000C00", 0x1.0000000000002p63),
      ("0x123456789ABCDEF0123456789", 0x1.23456789abcdfp96),
      ("0x0000000000000000000000000FF", 255),
      ("-0x10000000000000000", -0x1p64),
      ("+0xff", 255),
      ("0x0", 0),
      ("0x" + "FFFFFFFFFFFFF8" + String(repeating: "0", count: 242), .greatestFiniteMagnitude),
      // Beyond the range of a Double: infinity, which a template then refuses ("expected a finite number").
      ("0x" + "FFFFFFFFFFFFFC" + String(repeating: "0", count: 242), .infinity),
      ("0x1" + String(repeating: "0", count: 5000), .infinity),
    ] as [(String, Double)])
  func hexNumbersOfAnyLengthReadAsTheNearestDouble(text: String, value: Double) throws {
    expectEqual(try Self.number(text), value, "\(text.prefix(40))")
  }

  @Test func aHugeHexValueIsRefusedAsNotFinite() {
    let text =
      "{ flick: 1, canvas: { width: 0x1\(String(repeating: "0", count: 300)), height: 8, duration: 1 }, layers: [] }"
    do {
      _ = try Template.decode(text, file: "t.json5")
      Issue.record("an infinite width was read")
    } catch {
      #expect(error.description.hasPrefix("t.json5:1:30: canvas.width: expected a finite number"), "\(error)")
    }
  }
}
