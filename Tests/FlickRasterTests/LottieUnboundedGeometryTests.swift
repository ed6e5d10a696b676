import FlickExpectations
import Foundation
import Testing

@testable import FlickScene

/// Geometry rlottie 0.1 never finishes drawing is refused before drawing: a 567-byte file with
/// one path tangent of 1e12 points, and a repeater of 8 copies at 900 % a copy (9⁷ times the
/// first), each hung `flick still` for good (rlottie's own repro_infinite_loop.json is the
/// second kind: 18 copies at 900 %). Ordinary geometry and repeaters pass.
@Suite struct LottieUnboundedGeometryTests {
  static func file(shape: String) -> Data {
    Data(
      (#"{"v":"5.7.0","fr":30,"ip":0,"op":10,"w":100,"h":100,"layers":[{"ddd":0,"ind":1,"ty":4,"sr":1,"#
        + #""ks":{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"p":{"a":0,"k":[25,25,0]},"a":{"a":0,"k":[0,0,0]},"#
        + #""s":{"a":0,"k":[100,100,100]}},"shapes":["# + shape
        + #",{"ty":"fl","c":{"a":0,"k":[0,0,1,1]},"o":{"a":0,"k":100},"r":1}],"ip":0,"op":10,"st":0,"bm":0}]}"#)
        .utf8)
  }

  static func path(_ tangent: String) -> String {
    #"{"ty":"sh","ks":{"a":0,"k":{"i":[[0,0],[0,"# + tangent
      + #"],[0,0]],"o":[[0,0],[0,0],[0,0]],"v":[[0,0],[50,0],[50,50]],"c":true}}}"#
  }

  static func repeater(copies: String, scale: Double, offset: String = #"{"a":0,"k":0}"#, scaleY: Double = 100)
    -> String
  {
    path("0") + #",{"ty":"rp","c":"# + copies + #","o":"# + offset + #","m":1,"tr":{"ty":"tr","p":{"a":0,"k":[0,0]},"#
      + #""a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[\#(scale),\#(scaleY)]},"r":{"a":0,"k":0},"so":{"a":0,"k":100},"#
      + #""eo":{"a":0,"k":100}}}"#
  }

  static func findings(_ data: Data) throws -> [String] {
    try LottieFile.decode(data, path: "t.json").unsupportedFeatures
  }

  @Test func aFarPathPointIsRefused() throws {
    let found = try Self.findings(Self.file(shape: Self.path("1e12")))
    #expect(found.contains { $0.contains("a shape with a coordinate of 1e+12 points") }, "\(found)")
    // Keyframed shapes are read by their values, not their times.
    let keyed =
      #"{"ty":"sh","ks":{"a":1,"k":[{"t":5000000,"s":[{"i":[[0,0]],"o":[[0,0]],"v":[[0,-3e7]],"c":false}]}]}}"#
    #expect(try Self.findings(Self.file(shape: keyed)).contains { $0.contains("coordinate of 3e+07") })
    expectEqual(try Self.findings(Self.file(shape: Self.path("-40"))), [])
  }

  @Test func aRepeaterThatGrowsBeyondBoundsIsRefused() throws {
    let found = try Self.findings(Self.file(shape: Self.repeater(copies: #"{"a":0,"k":8}"#, scale: 900)))
    #expect(
      found.contains { $0.contains("a repeater whose copies grow 4.78e+06 times (900 % a copy, 8 copies") }, "\(found)")
    // Animated copies count at their most, keyframe times aside.
    let animated = #"{"a":1,"k":[{"t":0,"s":[0],"e":[18]},{"t":21,"s":[18],"e":[0]},{"t":49}]}"#
    #expect(
      try Self.findings(Self.file(shape: Self.repeater(copies: animated, scale: 900))).contains {
        $0.contains("18 copies")
      })
    // Modest growth, and shrinking copies, draw.
    expectEqual(try Self.findings(Self.file(shape: Self.repeater(copies: #"{"a":0,"k":12}"#, scale: 120))), [])
    expectEqual(try Self.findings(Self.file(shape: Self.repeater(copies: #"{"a":0,"k":200}"#, scale: 80))), [])
  }

  /// Copy `i` of a repeater is drawn at its transform applied `o + i` times: an offset of 50 at
  /// 150 % draws even a single copy 1.5⁵⁰ (6 · 10⁸) times larger, and a negative offset grows
  /// copies that shrink by as much (2⁵⁰ at 50 %). rlottie 0.1 did not finish either in a minute.
  @Test func aRepeaterOffsetCountsInItsGrowth() throws {
    func findings(copies: Double, offset: String, scale: Double, scaleY: Double? = nil) throws -> [String] {
      try Self.findings(
        Self.file(
          shape: Self.repeater(
            copies: #"{"a":0,"k":\#(copies)}"#, scale: scale, offset: offset, scaleY: scaleY ?? scale)))
    }
    let far = try findings(copies: 3, offset: #"{"a":0,"k":50}"#, scale: 150)
    #expect(
      far.contains { $0.contains("a repeater whose copies grow 1.43e+09 times (150 % a copy, 3 copies, offset 50") },
      "\(far)")
    let single = try findings(copies: 1, offset: #"{"a":0,"k":50}"#, scale: 150)
    #expect(single.contains { $0.contains("grow 6.38e+08 times (150 % a copy, 1 copies, offset 50") }, "\(single)")
    let shrinking = try findings(copies: 3, offset: #"{"a":0,"k":-50}"#, scale: 50)
    #expect(
      shrinking.contains { $0.contains("grow 1.13e+15 times (50 % a copy, 3 copies, offset -50") }, "\(shrinking)")
    // One axis grows where the other shrinks; an offset keyframed up to 40 counts at its highest.
    let uneven = try findings(copies: 3, offset: #"{"a":0,"k":-40}"#, scale: 150, scaleY: 50)
    #expect(uneven.contains { $0.contains("a repeater whose copies grow") }, "\(uneven)")
    let keyed = #"{"a":1,"k":[{"t":0,"s":[0],"e":[40]},{"t":10,"s":[40]}]}"#
    #expect(try findings(copies: 3, offset: keyed, scale: 150).contains { $0.contains("a repeater whose copies grow") })
    // A scale of 0 % drawn a negative number of times is unbounded.
    #expect(
      try findings(copies: 3, offset: #"{"a":0,"k":-2}"#, scale: 0).contains { $0.contains("copies grow inf times") })
    // Modest offsets draw: their copies stay within 10⁴ times the shapes.
    expectEqual(try findings(copies: 3, offset: #"{"a":0,"k":10}"#, scale: 150), [])
    expectEqual(try findings(copies: 12, offset: #"{"a":0,"k":-5}"#, scale: 120), [])
    expectEqual(try findings(copies: 200, offset: #"{"a":0,"k":-10}"#, scale: 80), [])
  }
}

/// Dashed strokes rlottie 0.1 cuts into pieces without limit are refused: a dash of -1 grew a
/// 1 KB file to 5.6 GB, dashes of 0.01 on a 10⁵-point rectangle took 791 MB, a 0.5 dash on a
/// 60-point rectangle in a group scaled 10⁷ % ran away too. Ordinary dashes pass.
@Suite struct LottieDashTests {
  static func rect(_ size: Double) -> String {
    #"{"ty":"rc","p":{"a":0,"k":[0,0]},"s":{"a":0,"k":[\#(size),\#(size)]},"r":{"a":0,"k":0}}"#
  }

  static func stroke(_ dashes: [(String, String)]) -> String {
    let d = dashes.map { #"{"n":"\#($0.0)","v":\#($0.1)}"# }.joined(separator: ",")
    return #"{"ty":"st","c":{"a":0,"k":[0,0,1,1]},"o":{"a":0,"k":100},"w":{"a":0,"k":2},"lc":1,"lj":1,"d":[\#(d)]}"#
  }

  static func fixed(_ v: Double) -> String { #"{"a":0,"k":\#(v)}"# }

  static func group(_ items: String, scale: Double) -> String {
    #"{"ty":"gr","it":["# + items
      + #",{"ty":"tr","p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[\#(scale),\#(scale)]},"#
      + #""r":{"a":0,"k":0},"o":{"a":0,"k":100}}]}"#
  }

  static func findings(_ shapes: String) throws -> [String] {
    try LottieUnboundedGeometryTests.findings(LottieUnboundedGeometryTests.file(shape: shapes))
  }

  @Test func negativeAndZeroPatternsAreRefused() throws {
    let negative = try Self.findings(Self.rect(60) + "," + Self.stroke([("d", Self.fixed(-1)), ("g", Self.fixed(-1))]))
    #expect(negative.contains { $0.contains("a stroke dash 'd' of -1 points") }, "\(negative)")
    let gap = try Self.findings(
      Self.rect(60) + "," + Self.stroke([("d", Self.fixed(1)), ("g", Self.fixed(-1)), ("o", Self.fixed(0))]))
    #expect(gap.contains { $0.contains("a stroke dash 'g' of -1 points") }, "\(gap)")
    // A pattern 0 at some moments only (one 0 at every moment is a solid stroke:
    // LottieDashOrderTests).
    let rising =
      #"{"a":1,"k":[{"t":0,"s":[0],"e":[10],"i":{"x":[1],"y":[1]},"o":{"x":[0],"y":[0]}},{"t":10,"s":[10]}]}"#
    let zero = try Self.findings(
      Self.rect(60) + "," + Self.stroke([("d", rising), ("g", Self.fixed(0)), ("o", Self.fixed(5))]))
    #expect(zero.contains { $0.contains("a stroke dash pattern of length 0 at some moment") }, "\(zero)")
    // A keyframed dash that overshoots below 0 on its way (easing handle y of -2).
    let eased =
      #"{"a":1,"k":[{"t":0,"s":[0],"e":[10],"o":{"x":[0.5],"y":[-2]},"i":{"x":[0.5],"y":[1]}},{"t":10,"s":[10]}]}"#
    let overshoot = try Self.findings(Self.rect(60) + "," + Self.stroke([("d", eased), ("g", Self.fixed(4))]))
    #expect(overshoot.contains { $0.contains("a stroke dash 'd' of -20 points") }, "\(overshoot)")
  }

  @Test func patternsTinyAgainstTheirPathsAreRefused() throws {
    let small = try Self.findings(
      Self.rect(1e5) + "," + Self.stroke([("d", Self.fixed(0.01)), ("g", Self.fixed(0.01))]))
    #expect(small.contains { $0.contains("a stroke dash pattern of 0.02 points over paths up to 400000") }, "\(small)")
    // The paths of a scaled group below the stroke count at their scale.
    let scaled = try Self.findings(
      Self.group(Self.rect(60), scale: 1e7) + "," + Self.stroke([("d", Self.fixed(0.5)), ("g", Self.fixed(0.5))]))
    #expect(scaled.contains { $0.contains("dashes; up to 1e+06 are drawn") }, "\(scaled)")
    // A negative gradient-stroke dash too.
    let gradient = Self.stroke([("d", Self.fixed(-3)), ("g", Self.fixed(1))]).replacingOccurrences(
      of: #""ty":"st""#, with: #""ty":"gs""#)
    let stroke2 = try Self.findings(
      Self.rect(60) + "," + gradient + "," + Self.stroke([("d", Self.fixed(1)), ("g", Self.fixed(1))]))
    #expect(stroke2.contains { $0.contains("of -3 points") }, "\(stroke2)")
    // Ordinary dashes, an offset below 0, and a stroke above the shapes (it paints none) pass.
    expectEqual(
      try Self.findings(
        Self.rect(60) + "," + Self.stroke([("d", Self.fixed(2)), ("g", Self.fixed(3)), ("o", Self.fixed(-40))])), [])
    expectEqual(
      try Self.findings(Self.stroke([("d", Self.fixed(0.01)), ("g", Self.fixed(0.01))]) + "," + Self.rect(1e5)), [])
  }
}
