import FlickExpectations
import Testing

@testable import FlickTemplates

/// A template of up to 16 MiB parses into millions of ``JSON5Value``s, so each stays small:
/// 8 million numbers took 1.24 GB with 72-byte values. Its position, origin and anchor still
/// read back as written and take part in equality.
@Suite struct JSON5ValueLayoutTests {
  @Test func aValueAndAMemberStaySmall() {
    expectLessOrEqual(MemoryLayout<JSON5Value>.stride, 40)
    expectLessOrEqual(MemoryLayout<JSON5Value.Member>.stride, 64)
  }

  @Test func positionOriginAndAnchorReadBackAndCompare() throws {
    var value = JSON5Value(.number(1), line: 70_000, column: 16_000_000)
    expectEqual(value.line, 70_000)
    expectEqual(value.column, 16_000_000)
    #expect(value.origin == nil && value.anchor == nil)
    let plain = value
    value.origin = "parameter 'accent'"
    expectEqual(value.origin, "parameter 'accent'")
    #expect(value.anchor == nil)
    #expect(value != plain)
    value.anchor = "layers[2] (use \"row\")"
    expectEqual(value.origin, "parameter 'accent'")
    expectEqual(value.anchor, "layers[2] (use \"row\")")
    var copy = value
    copy.origin = nil
    // Setting one on a copy leaves the other value's alone.
    expectEqual(value.origin, "parameter 'accent'")
    expectEqual(copy.anchor, "layers[2] (use \"row\")")
    copy.anchor = nil
    expectEqual(copy, plain)
    copy.line = -5
    expectEqual(copy.line, 0)
    var member = JSON5Value.Member(key: "x", value: value, line: 3, column: 9)
    member.column = 12
    expectEqual(member.line, 3)
    expectEqual(member.column, 12)
    // Parsed values carry their positions.
    let parsed = try JSON5Parser.parse("{\n  a: [1, \"two\"]\n}")
    let a = try #require(parsed["a"])
    expectEqual(a.line, 2)
    expectEqual(a.column, 6)
  }
}
