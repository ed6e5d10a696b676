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

  /// A `set` of a text layer's `string` with a `transition` reads the text shown before and after
  /// it through the layer's string property, whose index came from searching the list of every
  /// string the layer shows: n changes to distinct strings cost O(n²) (40,000 took 15.8 s of CPU
  /// in the debug build, 20,000 5.4 s). ``TimelineOutput/stringProperty(of:)`` reads the index
  /// from ``TimelineOutput/textStringIndices``, which ``TimelineOutput/remember(_:layerID:)``
  /// keeps beside the list; the test tampers with one index so a search of the list would
  /// read 6 where the look-up reads 99. Counted, not timed.
  @Test func theLayersStringPropertyReadsTheKeptIndicesNotTheList() throws {
    let template = try Template.decode(
      """
      { flick: 1, canvas: { width: 10, height: 10, duration: 1 },
        layers: [{ id: "label", size: [10, 10], fontFamily: "DejaVu Sans", string: "start" }] }
      """)
    var output = TimelineOutput(tracks: template.tracks)
    let n = 1_000
    for i in 0..<n { output.remember(["s\(i)"], layerID: "label") }
    output.remember(["s5", "start"], layerID: "label")
    let indices = try #require(output.textStringIndices["label"])
    expectEqual(indices.count, n + 1)
    for (i, s) in (output.textStrings["label"] ?? []).enumerated() { expectEqual(indices[s], i, "\(s)") }
    expectEqual(output.textStringComparisons, n + 2)
    var layer = try #require(template.tracks.layer("label"))
    layer.withText { $0.string = "s5" }
    expectEqual(output.stringProperty(of: "label").read(layer), 6)
    output.textStringIndices["label"]?["s5"] = 99
    expectEqual(output.stringProperty(of: "label").read(layer), 99)
  }

  /// A layer that shows n distinct strings, each a `set` with a `transition`, compiles to its
  /// frames as before: the text before and after each change, read through the indices.
  @Test func transitionsBetweenManyDistinctStringsShowEachPair() throws {
    let n = 200
    let entries = (0..<n).map { i in
      "{ at: \(Double(i + 1) / 256), target: \"label\", set: { string: \"item \(i)\" }, "
        + "transition: { kind: \"fade\", duration: 0.002 } }"
    }
    let template = try Template.decode(
      """
      { flick: 1, canvas: { width: 10, height: 10, duration: 1 },
        layers: [{ id: "label", size: [10, 10], fontFamily: "DejaVu Sans", string: "start" }],
        timeline: [ \(entries.joined(separator: ", ")) ] }
      """)
    for i in [0, 1, 77, n - 1] {
      let tree = template.scene.renderTree(at: (Double(i + 1) + 0.25) / 256)
      let text = try #require(tree.layer(id: "label")?.text)
      expectEqual(text.string, "item \(i)")
      expectEqual(text.transition?.from, i == 0 ? "start" : "item \(i - 1)")
      expectEqual(text.transition?.to, "item \(i)")
    }
  }
}
