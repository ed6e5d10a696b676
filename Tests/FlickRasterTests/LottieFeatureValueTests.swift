import FlickExpectations
@testable import FlickScene
import Foundation
import Testing

/// The unsupported-feature check reads every form an animatable value takes: a mask's
/// expansion (`x`) and feather (`f`) and a transform's skew (`sk`) are refused when any element
/// of an array `k`, or any keyframe's `s` or `e`, is not 0, and pass when all are 0.
@Suite struct LottieFeatureValueTests {
  static func file(mask: String = "", skew: String = "") -> Data {
    let ks =
      #"{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"p":{"a":0,"k":[32,32,0]},"a":{"a":0,"k":[0,0,0]},"s":{"a":0,"k":[100,100,100]}"#
      + (skew.isEmpty ? "" : #","sk":"# + skew + #","sa":{"a":0,"k":0}"#) + "}"
    let masks =
      mask.isEmpty
      ? ""
      : #","hasMask":true,"masksProperties":[{"mode":"a","pt":{"a":0,"k":{"i":[[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0]],"v":[[0,0],[60,0],[0,60]],"c":true}},"o":{"a":0,"k":100},"#
        + mask + "}]"
    return Data(
      (##"{"v":"5.7.0","fr":10,"ip":0,"op":10,"w":64,"h":64,"layers":[{"ddd":0,"ind":1,"ty":1,"sw":64,"sh":64,"sc":"#ff0000","ks":"##
        + ks + masks + #","ip":0,"op":10,"st":0}]}"#).utf8)
  }

  static func findings(_ data: Data) throws -> [String] {
    try LottieFile.decode(data, path: "t.json").unsupportedFeatures
  }

  static let nonZero = [
    #"{"a":0,"k":30}"#, #"{"a":0,"k":[30,30]}"#, #"{"k":[0,40]}"#, #"{"k":[40]}"#,
    #"{"a":1,"k":[{"t":0,"s":[0],"e":[30],"i":{"x":[0.5],"y":[0.5]},"o":{"x":[0.5],"y":[0.5]}},{"t":10,"s":[30]}]}"#,
    #"{"a":1,"k":[{"t":0,"s":0,"e":0},{"t":5,"s":[0,12]}]}"#,
  ]
  static let zero = [
    #"{"a":0,"k":0}"#, #"{"a":0,"k":[0,0]}"#, #"{"k":[0]}"#, #"{"a":1,"k":[{"t":0,"s":[0],"e":[0]},{"t":10,"s":[0]}]}"#,
  ]

  @Test(arguments: nonZero)
  func aNonZeroValueIsRefused(value: String) throws {
    #expect(try Self.findings(Self.file(mask: #""f":"# + value)).contains { $0.hasSuffix("mask feather") })
    #expect(try Self.findings(Self.file(mask: #""x":"# + value)).contains { $0.hasSuffix("mask expansion") })
    #expect(try Self.findings(Self.file(skew: value)).contains { $0.contains("skew") })
  }

  @Test(arguments: zero)
  func aZeroValuePasses(value: String) throws {
    expectEqual(try Self.findings(Self.file(mask: #""f":"# + value + #","x":"# + value)), [])
    expectEqual(try Self.findings(Self.file(skew: value)), [])
  }
}
