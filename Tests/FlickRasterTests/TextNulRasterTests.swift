import FlickExpectations
import FlickMotion
import FlickScene
import Testing

@testable import FlickRaster

/// Pango reads text as a C string, so a NUL character cut `"A\u{0}B"` to "A" without a word.
/// Templates refuse it at load; text reaching the rasteriser any other way (a Swift scene, a
/// transition's old string) is refused before it is laid out.
@Suite struct TextNulRasterTests {
  static func textLayer(_ string: String, transition: TextTransition? = nil) -> Layer {
    var text = TextContent(string: string, fontFamily: "DejaVu Sans", fontSize: 14, textColor: .black)
    text.transition = transition
    return Layer(
      id: "label", bounds: Rect(x: 0, y: 0, width: 80, height: 20), position: Point(x: 40, y: 10), content: .text(text))
  }

  static func refusal(_ layer: Layer) -> String? {
    do {
      _ = try Raster.render([layer], width: 80, height: 20)
      return nil
    } catch {
      return error.description
    }
  }

  @Test func textWithANulIsRefusedNotCut() throws {
    for layer in [
      Self.textLayer("A\u{0}B"),
      Self.textLayer("AB", transition: TextTransition(from: "A\u{0}", to: "AB", kind: .fade, progress: 0.5)),
    ] {
      let message = Self.refusal(layer)
      #expect(message?.contains("NUL character") == true, "\(String(describing: message))")
      #expect(message?.contains("label") == true, "\(String(describing: message))")
    }
    #expect(Self.refusal(Self.textLayer("AB")) == nil)
    #expect(throws: RasterError.self) {
      try TextMeasure.fittingSize(of: TextContent(string: "A\u{0}B", fontFamily: "DejaVu Sans"), fontFiles: [])
    }
  }
}
