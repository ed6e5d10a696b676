@testable import FlickRaster
import FlickExpectations
@testable import FlickScene
import Foundation
import Testing

/// Valid files rlottie 0.1 refused whole or drew wrong, which Flick's copy for rlottie writes as
/// lottie-web reads them: fractional sizes as whole numbers, a 2D layer's `rz` as lottie-web
/// reads it, a layer without `ddd` as 2D.
@Suite struct LottieRlottieCopyTests {
  static func file(
    w: String = "100", layer: String = #""ddd":0,"#, rotation: String = #""r":{"a":0,"k":30}"#, clip: String = "60"
  )
    -> String
  {
    let ks =
      #"{"o":{"a":0,"k":100},"# + rotation
      + #","p":{"a":0,"k":[50,50,0]},"a":{"a":0,"k":[30,30,0]},"s":{"a":0,"k":[100,100,100]}}"#
    let shapes =
      #"[{"ty":"rc","d":1,"s":{"a":0,"k":[80,40]},"p":{"a":0,"k":[30,30]},"r":{"a":0,"k":0}},{"ty":"fl","c":{"a":0,"k":[0,0,1,1]},"o":{"a":0,"k":100}}]"#
    return #"{"v":"5.7.0","fr":10,"ip":0,"op":10,"w":"# + w + #","h":100,"assets":[{"id":"p","w":"# + clip
      + #","h":"# + clip + #","layers":[{"ddd":0,"ind":1,"ty":4,"ks":"# + ks + #","ip":0,"op":10,"st":0,"shapes":"#
      + shapes + #"}]}],"layers":[{"# + layer + #""ind":1,"ty":0,"refId":"p","w":"# + clip + #","h":"# + clip
      + #","ks":"# + ks + #","ip":0,"op":10,"st":0}]}"#
  }

  static func frame(_ text: String) throws -> [UInt8] {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("flick-copy-\(getpid())-\(UUID()).json")
    try Data(text.utf8).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let scene = try LottieFile.load(path: url.path).scene()
    return try FrameRenderer().render(scene.renderTree(at: 0)).pixels
  }

  /// lottie-web (`TransformProperty`) takes a transform's rotation from `rz` only when it has
  /// `rx`, else from `r`, ignoring `rz`; rlottie 0.1 drew nothing for a 2D transform with `rz`.
  @Test func zRotationOnA2DLayerIsReadAsLottieWebReadsIt() throws {
    let expected = try Self.frame(Self.file())
    #expect(expected.contains { $0 != 0 })
    let level = try Self.frame(Self.file(rotation: #""r":{"a":0,"k":0}"#))
    #expect(level != expected)
    #expect(try Self.frame(Self.file(rotation: #""rz":{"a":0,"k":30}"#)) == level)
    #expect(try Self.frame(Self.file(rotation: #""r":{"a":0,"k":30},"rz":{"a":0,"k":60}"#)) == expected)
    let withX = #""rx":{"a":0,"k":0},"ry":{"a":0,"k":0},"rz":{"a":0,"k":30}"#
    #expect(try Self.frame(Self.file(rotation: withX)) == expected)
    #expect(try Self.frame(Self.file(rotation: #""r":{"a":0,"k":70},"# + withX)) == expected)
    // No `ddd` is a 2D layer (lottie-web's reading); rlottie 0.1 took it for 3D and ignored `r`.
    #expect(try Self.frame(Self.file(layer: "")) == expected)
  }

  @Test func fractionalSizesAreWholeForRlottie() throws {
    let expected = try Self.frame(Self.file(w: "101", clip: "61"))
    #expect(expected.contains { $0 != 0 })
    #expect(try Self.frame(Self.file(w: "100.5", clip: "60.5")) == expected)
    expectEqual(try LottieFile.decode(Data(Self.file(w: "100.5").utf8), path: "t.json").size.width, 101)
  }
}
