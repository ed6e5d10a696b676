import FlickExpectations
import Foundation
import Testing

@testable import FlickRaster
@testable import FlickScene

/// A dashed stroke under transforms that stretch its paths more than its dashes is counted at
/// that stretch (``LottieDashStretch``): rlottie 0.1 maps the paths through every transform above
/// the stroke but scales the dashes by one number, so a scale of [100000, 1] % over a rotation of
/// 45° drew a 100-point line as 3.4 million dashes of 1 point (10–23 s and 231 MB in rlottie for
/// each of the parent, group and precomposition files below, 3.5 million for the repeater).
/// Uniform scales with any rotation, and uneven scales without one, draw.
@Suite struct LottieDashStretchTests {
  static func property(_ k: String) -> String { #"{"a":0,"k":\#(k)}"# }

  static func transform(scale: String = "[100,100]", rotation: String = "0") -> String {
    #""a":{"a":0,"k":[0,0]},"p":{"a":0,"k":[50,50]},"s":"# + property(scale) + #","r":"# + property(rotation)
      + #","o":{"a":0,"k":100}"#
  }

  static let line = #"{"ty":"sh","ks":{"a":0,"k":{"i":[[0,0],[0,0]],"o":[[0,0],[0,0]],"v":[[0,0],[100,0]],"c":false}}}"#
  /// Dashes and gaps of 1 point: 50 dashes on the 100-point line, unstretched.
  static let stroke =
    #"{"ty":"st","c":{"a":0,"k":[0,0,1,1]},"o":{"a":0,"k":100},"w":{"a":0,"k":2},"lc":1,"lj":1,"d":["#
    + #"{"n":"d","v":{"a":0,"k":1}},{"n":"g","v":{"a":0,"k":1}},{"n":"o","v":{"a":0,"k":0}}]}"#

  static func group(_ items: String, scale: String = "[100,100]", rotation: String = "0") -> String {
    #"{"ty":"gr","it":["# + items + #",{"ty":"tr","# + transform(scale: scale, rotation: rotation) + "}]}"
  }

  static func layer(_ ind: Int, shapes: String? = nil, ks: String, more: String = "") -> String {
    let content = shapes.map { #""ty":4,"shapes":[\#($0)]"# } ?? #""ty":3"#
    return #"{"ddd":0,"ind":\#(ind),"# + content + #","ks":{"# + ks + #"},"ip":0,"op":10,"st":0"# + more + "}"
  }

  static func findings(_ layers: [String], assets: String = "[]") throws -> [String] {
    let json =
      #"{"v":"5.7.0","fr":10,"ip":0,"op":10,"w":100,"h":100,"assets":"# + assets + #","layers":["#
      + layers.joined(separator: ",") + "]}"
    return try LottieFile.decode(Data(json.utf8), path: "t.json").unsupportedFeatures
  }

  /// A dashed line in a layer rotated `rotation` whose parent is scaled `scale`.
  static func parented(scale: String, rotation: String) throws -> [String] {
    try findings([
      layer(2, shapes: line + "," + stroke, ks: transform(rotation: rotation), more: #","parent":1"#),
      layer(1, ks: transform(scale: scale)),
    ])
  }

  static func isStretched(_ found: [String]) -> Bool {
    found.contains { $0.contains("times longer than its dashes by the transforms above it (") }
  }

  @Test func aParentsUnevenScaleOverARotatedChildIsCounted() throws {
    let found = try Self.parented(scale: "[100000,1]", rotation: "45")
    #expect(
      found.contains {
        $0.contains(
          "layers[0]: a stroke dash pattern of 2 points over paths up to 100 points long, drawn up to 100000 times "
            + "longer than its dashes by the transforms above it (5e+06 dashes; up to 1e+06 are drawn)")
      },
      "\(found)")
    // At any keyframe: a scale that becomes uneven, a rotation that passes 45° on its way.
    let animated = #"[{"t":0,"s":[100,100],"e":[100000,1]},{"t":10,"s":[100000,1]}]"#
    #expect(Self.isStretched(try Self.parented(scale: animated, rotation: "45")))
    let turning = #"[{"t":0,"s":[0],"e":[90]},{"t":10,"s":[90]}]"#
    #expect(Self.isStretched(try Self.parented(scale: "[100000,1]", rotation: turning)))
    // Uniform scale with any rotation, uneven scale along the axes: the dashes keep up.
    expectEqual(try Self.parented(scale: "[100000,100000]", rotation: "45"), [])
    expectEqual(try Self.parented(scale: "[100000,1]", rotation: "90"), [])
    expectEqual(
      try Self.parented(scale: #"[{"t":0,"s":[0,0],"e":[100,100]},{"t":10,"s":[100,100]}]"#, rotation: "45"), [])
  }

  @Test func aGroupsUnevenScaleOverARotatedGroupIsCounted() throws {
    let inner = Self.group(Self.line + "," + Self.stroke, rotation: "45")
    #expect(
      Self.isStretched(
        try Self.findings([Self.layer(1, shapes: Self.group(inner, scale: "[100000,1]"), ks: Self.transform())])))
    let straight = Self.group(Self.line + "," + Self.stroke)
    expectEqual(
      try Self.findings([Self.layer(1, shapes: Self.group(straight, scale: "[100000,1]"), ks: Self.transform())]), [])
  }

  @Test func aPrecompositionLayersStretchReachesTheLayersItShows() throws {
    let asset =
      #"[{"id":"p","layers":["#
      + Self.layer(1, shapes: Self.line + "," + Self.stroke, ks: Self.transform(rotation: "45")) + "]}]"
    func using(_ scale: String) throws -> [String] {
      try Self.findings(
        [
          Self.layer(1, ks: Self.transform(scale: scale), more: #","refId":"p","w":100,"h":100"#).replacingOccurrences(
            of: #""ty":3"#, with: #""ty":0"#)
        ], assets: asset)
    }
    let found = try using("[100000,1]")
    #expect(found.contains { $0.hasPrefix("assets[0] 'p'.layers[0]: a stroke dash pattern") }, "\(found)")
    expectEqual(try using("[1000,1000]"), [])
  }

  @Test func repeaterCopiesStretchTheStrokesTheyCopy() throws {
    func repeated(_ scale: String) throws -> [String] {
      let repeater =
        #"{"ty":"rp","c":{"a":0,"k":6},"o":{"a":0,"k":0},"m":1,"tr":{"ty":"tr","#
        + Self.transform(scale: scale, rotation: "45")
        + #","so":{"a":0,"k":100},"eo":{"a":0,"k":100}}}"#
      return try Self.findings([
        Self.layer(1, shapes: Self.line + "," + Self.stroke + "," + repeater, ks: Self.transform())
      ])
    }
    // Copy 5 is scaled [100, 0.001] % and turned 225°: its dashes are 10⁻⁵ points.
    #expect(Self.isStretched(try repeated("[100,10]")))
    expectEqual(try repeated("[90,90]"), [])
  }

  /// The count is made on the list rlottie is given: a single dash before the offset takes a gap
  /// as long (rlottie's reading of an even count, lottie-web's of an odd array), an odd array of
  /// three is written twice (six dashes and gaps), a list without `o` gets an offset.
  @Test func theCountIsOfTheListRlottieIsGiven() throws {
    func found(_ entries: [(String, String)]) throws -> [String] {
      let rect = #"{"ty":"rc","p":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100000,100000]},"r":{"a":0,"k":0}}"#
      let d = entries.map { #"{"n":"\#($0.0)","v":{"a":0,"k":\#($0.1)}}"# }.joined(separator: ",")
      let stroke = #"{"ty":"st","c":{"a":0,"k":[0,0,1,1]},"o":{"a":0,"k":100},"w":{"a":0,"k":2},"d":[\#(d)]}"#
      return try Self.findings([Self.layer(1, shapes: rect + "," + stroke, ks: Self.transform())])
    }
    let single = try found([("d", "0.01"), ("o", "1000000")])
    #expect(
      single.contains { $0.contains("a stroke dash pattern of 0.02 points over paths up to 400000") }, "\(single)")
    let odd = try found([("o", "5"), ("d", "0.01"), ("g", "0.01"), ("d", "0.01")])
    #expect(odd.contains { $0.contains("a stroke dash pattern of 0.06 points over paths up to 400000") }, "\(odd)")
    // `[d, g, d, g]` without `o` is two pairs (lottie-web); rlottie alone read the last `g` as the offset.
    expectEqual(try found([("d", "0.01"), ("g", "0.01"), ("d", "0.01"), ("g", "1000000")]), [])
  }

  /// The frame of a 100-point square stroked with dash entries `values` (in order, named `d`),
  /// then an offset entry `o` when `offset` is given.
  static func dashedFrame(_ values: [Double], offset: Double? = nil) throws -> [UInt8] {
    let entries = values.map { ("d", $0) } + (offset.map { [("o", $0)] } ?? [])
    let d = entries.map { #"{"n":"\#($0.0)","v":{"a":0,"k":\#($0.1)}}"# }.joined(separator: ",")
    let square = #"{"ty":"rc","p":{"a":0,"k":[0,0]},"s":{"a":0,"k":[80,80]},"r":{"a":0,"k":0}}"#
    let stroke = #"{"ty":"st","c":{"a":0,"k":[0,0,1,1]},"o":{"a":0,"k":100},"w":{"a":0,"k":4},"d":[\#(d)]}"#
    let json =
      #"{"v":"5.7.0","fr":10,"ip":0,"op":10,"w":100,"h":100,"layers":["#
      + layer(1, shapes: square + "," + stroke, ks: transform()) + "]}"
    return try LottieRlottieCopyTests.frame(json)
  }

  /// Every entry is drawn, past the 5 that older rlottie held (Debian's 0.1 keeps a list): 6
  /// dashes and gaps draw as the same pattern written twice over (12), not as their first 4.
  @Test func everyDashEntryIsDrawn() throws {
    let seven = try Self.dashedFrame([10, 5, 20, 5, 3, 7], offset: 0)
    #expect(seven.contains { $0 != 0 })
    #expect(try Self.dashedFrame([10, 5, 20, 5, 3, 7, 10, 5, 20, 5, 3, 7], offset: 0) == seven)
    #expect(try Self.dashedFrame([10, 5, 20, 5], offset: 3) != seven)
    // An odd array is drawn written twice (SVG's rule), not with its last dash as its own gap.
    #expect(try Self.dashedFrame([10, 5, 20], offset: 5) == Self.dashedFrame([10, 5, 20, 10, 5, 20], offset: 5))
    #expect(try Self.dashedFrame([10, 5, 20], offset: 5) != Self.dashedFrame([10, 5, 20, 20], offset: 5))
    #expect(try Self.dashedFrame([10], offset: 5) == Self.dashedFrame([10, 10], offset: 5))
  }
}
