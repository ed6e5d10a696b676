import FlickExpectations
import Testing

@testable import FlickTemplates

/// A text layer's strings are kept in the order it first shows them, without repeats: what an
/// autoreversing repeat plays backwards through. Each new string was searched for in that list,
/// so a layer with n distinct strings cost O(n²) to compile (20,000 keyframes of strings took
/// over ten minutes); each is now one look-up in a set. Counted, not timed.
@Suite struct TextStringsCostTests {
  @Test func eachStringIsOneLookUpWhateverTheLayerShows() throws {
    let template = try Template.decode(
      """
      { flick: 1, canvas: { width: 10, height: 10, duration: 1 },
        layers: [{ id: "label", size: [10, 10], fontFamily: "DejaVu Sans", string: "start" }] }
      """)
    var output = TimelineOutput(tracks: template.tracks)
    let n = 20_000
    output.remember((0..<n).map { "s\($0)" }, layerID: "label")
    // Repeats and the layer's own string add nothing.
    output.remember((0..<n).map { "s\($0 / 2)" } + ["start"], layerID: "label")
    for i in 0..<100 { output.remember(["t\(i)"], layerID: "label") }
    expectEqual(output.textStrings["label"], ["start"] + (0..<n).map { "s\($0)" } + (0..<100).map { "t\($0)" })
    expectEqual(output.textStringComparisons, 2 * n + 1 + 100)
  }
}
