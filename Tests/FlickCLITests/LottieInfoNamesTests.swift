import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// `flick info` on a Lottie file echoes names from the file (composition, layers, markers, the
/// version) escaped and cut like every other echo of input: no terminal escape, bidirectional
/// override or new line reaches the terminal, and a huge name shows 200 characters.
@Suite struct LottieInfoNamesTests {
  @Test func namesAreEscapedAndCut() throws {
    let root = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: root) }
    let hostile = [
      #"\u001b[2J\u001b[31mred"#, #"a\u202eevil"#, #"x\nflick: forged error"#, #"y\n::error file=a::forged"#,
      String(repeating: "N", count: 5000),
    ]
    let ks =
      #"{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"p":{"a":0,"k":[0,0,0]},"a":{"a":0,"k":[0,0,0]},"s":{"a":0,"k":[100,100,100]}}"#
    let layers = hostile.enumerated().map { i, name in
      #"{"ddd":0,"ind":"# + "\(i + 1)" + #","ty":3,"nm":""# + name + #"","ks":"# + ks + #","ip":0,"op":10,"st":0}"#
    }
    let markers = hostile.map { #"{"cm":""# + $0 + #"","tm":1,"dr":0}"# }
    let json =
      #"{"v":"5.7.0\u001b[0m","fr":10,"ip":0,"op":10,"w":64,"h":64,"nm":""# + hostile[2] + #"","markers":["#
      + markers.joined(separator: ",") + #"],"layers":["# + layers.joined(separator: ",") + "]}"
    let file = root.appendingPathComponent("names.json").path
    try Data(json.utf8).write(to: URL(fileURLWithPath: file))
    let r = try CLITests.run(CLITests.flick, ["info", file])
    expectEqual(r.status, 0, "\(r.stderr)")
    #expect(!r.stdout.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" })
    for line in r.stdout.split(separator: "\n") {
      #expect(!line.hasPrefix("flick:") && !line.hasPrefix("::error"), "\(line)")
      #expect(line.count < 300, "a line of \(line.count) characters")
    }
    #expect(r.stdout.contains(#"\u{1B}[31mred"#))
    #expect(r.stdout.contains(#"x\nflick: forged error"#))
  }
}
