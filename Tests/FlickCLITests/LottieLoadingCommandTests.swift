import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// A file that looks like Lottie is read by the Lottie loader, whatever is wrong in it: a bad
/// number, its size, its header, a dotLottie archive. Each gets a message about that, located
/// where it can be, never the template loader's ("missing the format version").
@Suite struct LottieLoadingCommandTests {
  static let layer =
    #"{"ddd":0,"ind":1,"ty":3,"nm":"NAME","ks":{"o":{"a":0,"k":OPACITY},"r":{"a":0,"k":0},"p":{"a":0,"k":[0,0,0]},"a":{"a":0,"k":[0,0,0]},"s":{"a":0,"k":[100,100,100]}},"ip":0,"op":10,"st":0}"#

  static func lottie(w: String = "64", name: String = "n", opacity: String = "100") -> String {
    #"{"v":"5.7.0","fr":10,"ip":0,"op":10,"w":"# + w + #","h":64,"layers":["#
      + layer.replacingOccurrences(of: "NAME", with: name).replacingOccurrences(of: "OPACITY", with: opacity) + "]}"
  }

  static func run(_ name: String, _ data: Data) throws -> (CLITests.Result, String) {
    let root = try CLITests.temporaryDirectory()
    let file = root.appendingPathComponent(name).path
    try data.write(to: URL(fileURLWithPath: file))
    let r = try CLITests.run(CLITests.flick, ["info", file])
    try? FileManager.default.removeItem(at: root)
    return (r, file)
  }

  @Test(arguments: [
    ("NaN", "2:1: layers[0].ks.o.k: NaN is not a JSON number"),
    ("1e400", "2:1: layers[0].ks.o.k: 1e400 is beyond what a 64-bit number holds"),
  ])
  func aBadNumberIsLocated(number: String, message: String) throws {
    let text = Self.lottie(opacity: "\n" + number)
    let (r, file) = try Self.run("a.json", Data(text.utf8))
    expectEqual(r.status, 2)
    #expect(r.stderr.hasPrefix("flick: Lottie file \(file):\(message)"), "\(r.stderr)")
  }

  @Test func aTopLevelValueOutOfRangeIsLocated() throws {
    let (r, file) = try Self.run("a.json", Data(Self.lottie(w: "16385").utf8))
    expectEqual(r.status, 2)
    #expect(
      r.stderr.hasPrefix("flick: Lottie file \(file):1:41: w: must be a number in 1…16384, found 16385"), "\(r.stderr)")
  }

  @Test func aLottieFileOverTheTemplateCapIsStillLottie() throws {
    let big = String(repeating: "N", count: 17 << 20)
    let (r, _) = try Self.run("big.json", Data(Self.lottie(name: big).utf8))
    expectEqual(r.status, 0, "\(r.stderr)")
    #expect(r.stdout.hasPrefix("Lottie file"))
    let (over, _) = try Self.run("over.json", Data(Self.lottie(name: String(repeating: "N", count: 65 << 20)).utf8))
    expectEqual(over.status, 2)
    #expect(over.stderr.contains("is 65 MiB; Lottie files up to 64 MiB are read"), "\(over.stderr)")
  }

  @Test func aDotLottieArchiveIsNamed() throws {
    let zip = Data([0x50, 0x4B, 0x03, 0x04, 0x14, 0, 0, 0, 0, 0]) + Data("animations/a.json".utf8)
    let (r, _) = try Self.run("a.lottie", zip)
    expectEqual(r.status, 2)
    #expect(r.stderr.contains("is a .lottie (dotLottie) archive, which is not supported; unzip it"), "\(r.stderr)")
  }
}
