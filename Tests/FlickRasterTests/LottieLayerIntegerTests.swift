@testable import FlickRaster
import FlickExpectations
@testable import FlickScene
import Foundation
import Testing

/// The whole numbers that link and classify layers are read as rlottie 0.1 reads them
/// (``LottieLayerIntegers``): its parser takes `ind`, `parent`, `ty`, `tt`, `bm`, `ddd` and `ao`
/// only as 32-bit whole numbers and fails the whole file on `"ind": 1.5` (and on `1.0`), while
/// Flick's own reading cut `1.5` to `1` (its track matte check, the precomposition it follows,
/// the parents of its dash bound). A value that is not a whole number is refused where it is;
/// a whole number written with a fraction is drawn as the number.
@Suite struct LottieLayerIntegerTests {
  static func file(
    top: String = #""ddd":0,"ind":1,"ty":4"#, child: String = #""ddd":0,"ind":2,"parent":1,"ty":4"#,
    assetID: String = #""p""#, refId: String = #""p""#
  ) -> String {
    let ks =
      #""ks":{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"p":{"a":0,"k":[50,50]},"a":{"a":0,"k":[0,0]},"#
      + #""s":{"a":0,"k":[100,100]}}"#
    let shapes =
      #""shapes":[{"ty":"rc","d":1,"s":{"a":0,"k":[40,20]},"p":{"a":0,"k":[0,0]},"r":{"a":0,"k":0}},"#
      + #"{"ty":"fl","c":{"a":0,"k":[0,0,1,1]},"o":{"a":0,"k":100}}]"#
    let timing = #""ip":0,"op":10,"st":0"#
    return #"{"v":"5.7.0","fr":10,"ip":0,"op":10,"w":100,"h":100,"assets":[{"id":"# + assetID + #","layers":[{"#
      + [top, ks, shapes, timing].joined(separator: ",") + "},{" + [child, ks, shapes, timing].joined(separator: ",")
      + #"}]}],"layers":[{"ddd":0,"ind":1,"ty":0,"refId":"# + refId + #","w":100,"h":100,"# + ks + "," + timing + "}]}"
  }

  static func error(_ text: String) -> LottieFileError? {
    do {
      _ = try LottieFile.decode(Data(text.utf8), path: "t.json")
      return nil
    } catch {
      return error
    }
  }

  @Test(arguments: ["ind", "parent", "tt", "tp", "ty", "bm", "ddd", "ao"])
  func aLayerKeyThatIsNotAWholeNumberIsRefusedWhereItIs(key: String) throws {
    for value in ["1.5", "3000000000", "true", #""1""#] {
      var keys = ["ddd": "0", "ind": "2", "parent": "1", "ty": "4"]
      keys[key] = value
      let child = keys.sorted { $0.key < $1.key }.map { #""\#($0.key)":\#($0.value)"# }.joined(separator: ",")
      let failure = try #require(Self.error(Self.file(child: child)), "\(key): \(value)")
      #expect(failure.line != nil && failure.column != nil)
      #expect(
        failure.message.hasPrefix("assets[0].layers[1].\(key): expected a whole number from -2147483648 to 2147483647"),
        "\(failure.message)")
    }
  }

  @Test func assetIDsAndReferencesAreReadAsRlottieReadsThem() throws {
    let fractional = try #require(Self.error(Self.file(assetID: "1.5", refId: #""1""#)))
    #expect(fractional.message.hasPrefix("assets[0].id: expected a string or a whole number"), "\(fractional.message)")
    // A huge number trapped Flick's own conversion (Int(1e300)).
    #expect(Self.error(Self.file(assetID: "1e300", refId: #""1""#)) != nil)
    let number = try #require(Self.error(Self.file(refId: "7")))
    #expect(number.message.hasPrefix("layers[0].refId: expected a string naming an asset's id"), "\(number.message)")
    #expect(Self.error(Self.file(assetID: "7", refId: #""7""#)) == nil)
  }

  /// rlottie failed the whole file on `1.0`; lottie-web reads it as `1`, and so is it drawn.
  @Test func wholeNumbersWrittenWithAFractionAreDrawnAsTheNumbers() throws {
    let expected = try LottieRlottieCopyTests.frame(Self.file(assetID: "3", refId: #""3""#))
    #expect(expected.contains { $0 != 0 })
    let written = Self.file(
      top: #""ddd":0.0,"ind":1.0,"ty":4.0,"bm":0.0,"ao":0e0"#,
      child: #""ddd":0,"ind":2.0,"parent":1.0,"ty":4,"tt":0.0"#,
      assetID: "3.0", refId: #""3""#)
    #expect(try LottieRlottieCopyTests.frame(written) == expected)
  }
}
