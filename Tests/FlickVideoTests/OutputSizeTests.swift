@testable import FlickVideo
import FlickExpectations
import FlickMotion
import Testing

/// ``OutputSize``: the even size an odd MP4's refusal suggests is one `--size` accepts, for
/// every small canvas and for phone, square and extreme ones.
@Suite struct OutputSizeTests {
  /// Canvases beyond the exhaustive small ones: phones (portrait and landscape), odd video
  /// sizes, and ratios far from square.
  static let canvases: [(Int, Int)] = [
    (641, 360), (375, 812), (812, 375), (390, 844), (393, 852), (414, 896), (428, 926), (1, 1), (3, 5), (5, 3),
    (1079, 1919), (1919, 1079), (1001, 1), (1, 1001), (4097, 3), (3, 4097), (8191, 8191),
  ]

  /// Every canvas of 1…64 × 1…64 points and the ones above, at the size `--size` gives for its
  /// own width: a frame with an odd side gets an even size at least as wide that `--size`
  /// accepts (within twice the width), and the MP4 command for it builds.
  @Test func theSuggestedEvenSizeIsOneSizeAccepts() throws {
    var cases = Self.canvases
    for w in 1...64 { for h in 1...64 { cases.append((w, h)) } }
    for (w, h) in cases {
      let canvas = Size(width: Double(w), height: Double(h))
      #expect(OutputSize.accepts(width: w, height: h, canvas: canvas), "\(w)×\(h) at its own size")
      guard w % 2 == 1 || h % 2 == 1 else { continue }
      let even = try #require(OutputSize.evenSize(from: w, canvas: canvas), "\(w)×\(h) has an even size")
      #expect(even.width % 2 == 0 && even.height % 2 == 0, "\(w)×\(h) → \(even.width)×\(even.height)")
      #expect(OutputSize.accepts(width: even.width, height: even.height, canvas: canvas), "\(w)×\(h)")
      #expect(even.width >= w && even.width <= 2 * w + 1, "\(w)×\(h) → \(even.width)×\(even.height)")
      #expect(throws: Never.self, "\(w)×\(h) → \(even.width)×\(even.height)") {
        _ = try FFmpegCommand(
          format: .mp4, width: even.width, height: even.height, fps: 30, options: .init(), output: "o.mp4",
          canvas: canvas)
      }
    }
  }

  /// The refusal names that size: 641×360 → 644×362 (642×361 would be odd again), 375×812 →
  /// 376×814; a canvas with no even size under 16384 pixels a side is told to use --pad only.
  @Test func theRefusalNamesTheEvenSize() {
    for (w, h, suggested) in [(641, 360, "644x362"), (375, 812, "376x814"), (3, 5, "6x10"), (1, 1, "2x2")] {
      let advice = FFmpegCommand.oddSizeAdvice(width: w, height: h, canvas: Size(width: Double(w), height: Double(h)))
      #expect(advice.contains("render at --size \(suggested) "), "\(advice)")
    }
    let flat = FFmpegCommand.oddSizeAdvice(width: 16383, height: 7, canvas: Size(width: 16383, height: 7))
    #expect(flat.contains("render at --size 16384x") == false)
    let thin = FFmpegCommand.oddSizeAdvice(width: 9, height: 16383, canvas: Size(width: 9, height: 16383))
    #expect(thin.contains("no even --size") && thin.hasSuffix("add --pad to pad to 10x16384"), "\(thin)")
  }

  /// The size advised when `--size` changes the aspect ratio is one `--size` accepts: for every
  /// canvas above and of 1…24 × 1…24 points and widths from 1 to 3 × the canvas's (and near
  /// 16384), with even sides where the outputs need them (an MP4 without `--pad`), where the
  /// MP4 command for it builds. It was the height the width gives, odd as often as not
  /// (641×360 → "use --size 641x361", which an MP4 then refused).
  @Test func theSizeAdvisedForAnotherAspectRatioIsAccepted() throws {
    var canvases = Self.canvases + [(640, 360), (960, 540), (720, 480)]
    for w in 1...24 { for h in 1...24 { canvases.append((w, h)) } }
    var advisedOdd = 0
    for (cw, ch) in canvases {
      let canvas = Size(width: Double(cw), height: Double(ch))
      var widths = Array(Set((1...(3 * cw)).filter { $0 < 200 || $0 % 37 == 0 } + [16383, 16384]))
      widths = widths.filter { $0 <= 16384 }
      for width in widths {
        for even in [false, true] {
          guard let advised = OutputSize.advised(forWidth: width, canvas: canvas, evenSides: even) else {
            // None only where the height this width gives is over 16384 or, for even sides, where
            // no even size from it fits.
            let frames = OutputSize.size(forWidth: width, canvas: canvas)
            #expect(
              !OutputSize.accepts(width: frames.width, height: frames.height, canvas: canvas)
                || (even && OutputSize.evenSize(from: width, canvas: canvas) == nil),
              "\(cw)×\(ch) at width \(width)")
            continue
          }
          let label = "\(cw)×\(ch) at width \(width) → \(advised.width)x\(advised.height)"
          #expect(OutputSize.accepts(width: advised.width, height: advised.height, canvas: canvas), "\(label)")
          guard even else {
            if advised.height % 2 == 1 { advisedOdd += 1 }
            continue
          }
          #expect(advised.width % 2 == 0 && advised.height % 2 == 0, "\(label)")
          #expect(advised.width >= width, "\(label)")
          #expect(throws: Never.self, "\(label)") {
            _ = try FFmpegCommand(
              format: .mp4, width: advised.width, height: advised.height, fps: 30, options: .init(), output: "o.mp4",
              canvas: canvas)
          }
        }
      }
    }
    // Without the constraint the height the width gives is advised as it is, odd ones included.
    expectGreater(advisedOdd, 0)
  }
}
