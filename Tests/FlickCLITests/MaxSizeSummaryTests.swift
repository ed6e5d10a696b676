import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// The summary of a `--max-size` GIF describes the file written: the delay note for the rate
/// chosen (not the template's 30 fps when a lower one was kept), gifsicle's pass on the setting
/// kept (also when it was found after the first encoding), and a one-frame GIF as one image.
@Suite struct MaxSizeSummaryTests {
  @Test func theNotesDescribeTheRateAndPassOfTheFileKept() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let full = dir.appendingPathComponent("full.gif").path
    let r0 = try MaxSizeCommandTests.render(["-o", full, "--scale", "0.5", "-q"])
    expectEqual(r0.status, 0, "\(r0.stderr)")
    let size = try FileManager.default.attributesOfItem(atPath: full)[.size] as! Int
    let gif = dir.appendingPathComponent("fit.gif").path
    let r = try MaxSizeCommandTests.render(["-o", gif, "--scale", "0.5", "--max-size", "\(size * 7 / 10)B"])
    expectEqual(r.status, 0, "\(r.stderr)")
    let fps = try #require(r.stderr.firstMatch(of: /fits under [^\n]* at ([0-9]+) fps/).flatMap { Int($0.output.1) })
    // hello is 30 fps: 70 % of its size is reached only at a lower rate (gifsicle takes 4–10 % off).
    #expect(fps < 30, "\(r.stderr)")
    #expect(!r.stderr.contains("30 fps alternates"), "\(r.stderr)")
    let exact = [50, 25, 20, 10].contains(fps)
    expectEqual(r.stderr.contains("\(fps) fps alternates"), !exact, "\(r.stderr)")
    if MaxSizeCommandTests.hasGifsicle {
      let pass = r.stderr.split(separator: "\n").first { $0.hasPrefix("\(gif) ") && $0.contains("gifsicle -O3") }
      #expect(pass != nil, "gifsicle ran on the setting kept: \(r.stderr)")
    }
  }

  @Test func aOneFrameGIFIsDescribedAsOneImage() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let gif = dir.appendingPathComponent("one.gif").path
    let r = try MaxSizeCommandTests.render(["-o", gif, "--frames", "45", "--max-size", "1KB"])
    expectEqual(r.status, 0, "\(r.stderr)")
    let line = try #require(r.stderr.split(separator: "\n").first { $0.contains("fits under") }, "\(r.stderr)")
    #expect(line.contains("fits under 1 KB as one image, "), "\(line)")
    #expect(!line.contains(" fps"), "\(line)")
    #expect(!r.stderr.contains("fps alternates"), "\(r.stderr)")
  }
}
