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

  static func repeater(copies: String, scale: Double) -> String {
    path("0") + #",{"ty":"rp","c":"# + copies + #","o":{"a":0,"k":0},"m":1,"tr":{"ty":"tr","p":{"a":0,"k":[0,0]},"#
      + #""a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[\#(scale),100]},"r":{"a":0,"k":0},"so":{"a":0,"k":100},"#
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
}
