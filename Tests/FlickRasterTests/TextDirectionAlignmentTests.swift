import FlickExpectations
import FlickMotion
import FlickScene
import Testing

@testable import FlickRaster

/// `left` and `right` are the sides of the bounds for text in any direction, wrapped or not (as
/// Core Animation's `kCAAlignmentLeft` and `Right`); `justified` is natural (a right-to-left
/// paragraph's last line, and unwrapped right-to-left text, on the right); `center` is the
/// middle. Pango mirrored left and right for a right-to-left paragraph laid out in a width, so
/// wrapped Hebrew aligned `left` drew at the right and `right` at the left.
@Suite struct TextDirectionAlignmentTests {
  static let hebrew = "שלום"

  /// The horizontal ink extent of each line of a text layer 200 points wide at x 50…250, black
  /// on white: of each band of rows with ink, the bands more than 5 blank rows apart.
  static func lineInk(
    _ string: String, _ alignment: TextContent.Alignment, isWrapped: Bool = true,
    truncation: TextContent.TruncationMode = .none, lines: Int = 1, opacity: Double = 1
  ) throws -> [(minX: Int, maxX: Int)?] {
    // Truncated text gets the height of one line, where wrapping would make more.
    let height = truncation == .none ? 40.0 * Double(lines) : 30
    var text = Layer(
      id: "t", bounds: Rect(x: 0, y: 0, width: 200, height: height), position: Point(x: 150, y: 10 + height / 2),
      content: .text(
        TextContent(
          string: string, fontFamily: "DejaVu Sans", fontSize: 20, textColor: .black, alignment: alignment,
          isWrapped: isWrapped, lineSpacing: 10, truncationMode: truncation)))
    // Below 1 the layer draws into a group the size of its ink extents, which must hold the text.
    text.opacity = opacity
    let frame = try Raster.render([text], width: 300, height: 20 + height)
    var bands: [(minX: Int, maxX: Int)] = []
    var blank = 0
    for y in 0..<frame.height {
      let row = (0..<frame.width).filter { !frame.pixel($0, y, is: .white, tolerance: 40) }
      guard let minX = row.first, let maxX = row.last else {
        blank += 1
        continue
      }
      if blank > 5 || bands.isEmpty {
        bands.append((minX, maxX))
      } else {
        bands[bands.count - 1] = (min(bands[bands.count - 1].minX, minX), max(bands[bands.count - 1].maxX, maxX))
      }
      blank = 0
    }
    return (0..<lines).map { $0 < bands.count ? bands[$0] : nil }
  }

  /// Whether `ink` starts at the bounds' left side (x 50), ends at its right (x 250), or is
  /// centred in it.
  static func side(_ ink: (minX: Int, maxX: Int)?) -> String {
    guard let ink else { return "none" }
    if ink.minX >= 50, ink.minX <= 56, ink.maxX < 200 { return "left" }
    if ink.maxX <= 250, ink.maxX >= 244, ink.minX > 100 { return "right" }
    if abs((ink.minX + ink.maxX) / 2 - 150) <= 3 { return "center" }
    return "\(ink.minX)…\(ink.maxX)"
  }

  @Test(arguments: [true, false])
  func leftAndRightAreTheSidesInEitherDirection(isWrapped: Bool) throws {
    for string in [Self.hebrew, "abcd", "مرحبا"] {
      for (alignment, expected) in [(TextContent.Alignment.left, "left"), (.right, "right"), (.center, "center")] {
        let ink = try Self.lineInk(string, alignment, isWrapped: isWrapped)
        expectEqual(Self.side(ink[0]), expected, "\(string) \(alignment) wrapped \(isWrapped)")
      }
    }
  }

  /// `justified` is natural: a right-to-left line (unwrapped, or the last of its paragraph) on
  /// the right, a left-to-right one on the left; drawn in a group too (half opaque), whose size
  /// the layer's ink extents give.
  @Test(arguments: [true, false])
  func justifiedIsNatural(isWrapped: Bool) throws {
    for opacity in [1, 0.5] {
      let hebrew = try Self.lineInk(Self.hebrew, .justified, isWrapped: isWrapped, opacity: opacity)
      expectEqual(Self.side(hebrew[0]), "right", "opacity \(opacity)")
      let latin = try Self.lineInk("abcd", .justified, isWrapped: isWrapped, opacity: opacity)
      expectEqual(Self.side(latin[0]), "left", "opacity \(opacity)")
    }
  }

  /// Each paragraph takes its own direction: a left-to-right and a right-to-left one in the same
  /// text both go to the side asked for, and, justified, each to its own side.
  @Test(arguments: [true, false])
  func mixedParagraphsEachFollowTheAlignment(isWrapped: Bool) throws {
    for (first, second) in [("abcd", Self.hebrew), (Self.hebrew, "abcd")] {
      let string = first + "\n" + second
      for alignment in [TextContent.Alignment.left, .right, .center] {
        let ink = try Self.lineInk(string, alignment, isWrapped: isWrapped, lines: 2)
        let expected = "\(alignment)"
        expectEqual(Self.side(ink[0]), expected, "\(string) \(alignment) wrapped \(isWrapped), first line")
        expectEqual(Self.side(ink[1]), expected, "\(string) \(alignment) wrapped \(isWrapped), second line")
      }
      let justified = try Self.lineInk(string, .justified, isWrapped: isWrapped, lines: 2)
      let sides = justified.map { Self.side($0) }
      expectEqual(sides, first == "abcd" ? ["left", "right"] : ["right", "left"], "\(string) justified")
    }
  }

  /// A truncated right-to-left line, wrapped or not, keeps to the side asked for.
  @Test(arguments: [true, false])
  func truncatedRightToLeftTextKeepsItsSide(isWrapped: Bool) throws {
    let long = Array(repeating: Self.hebrew, count: 12).joined(separator: " ")
    for (alignment, expected) in [(TextContent.Alignment.left, 50), (.right, 250)] {
      let ink = try #require(try Self.lineInk(long, alignment, isWrapped: isWrapped, truncation: .end)[0])
      // The ellipsised line nearly fills the width: the side asked for is the one it reaches.
      let edge = alignment == .left ? ink.minX : ink.maxX
      expectLessOrEqual(abs(edge - expected), 6, "\(alignment) wrapped \(isWrapped): \(ink)")
    }
  }

  /// A moved line's characters are where it draws them (a text transition places each one there).
  @Test func characterBoxesMoveWithTheirLine() throws {
    let context = TextContext(ownFontMap: true)
    let text = TextContent(string: Self.hebrew, fontFamily: "DejaVu Sans", fontSize: 20, alignment: .left)
    let layout = try #require(context.layout(text, size: Size(width: 200, height: 40)))
    let boxes = try #require(layout.characterBoxes(of: Self.hebrew))
    expectEqual(boxes.count, 4)
    expectLess(boxes.map(\.minX).min() ?? 200, 1)
    expectLess(boxes.map(\.maxX).max() ?? 200, 60)
  }
}
