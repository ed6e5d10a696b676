import FlickExpectations
import FlickMotion
import FlickScene
import Foundation
import Testing

@testable import FlickRaster

/// Text shaped on several threads at once lays out as it does alone. Pango 1.50 measures a font
/// the first time a layout needs its metrics, with a flag every thread shares: a font measured
/// while another thread measured one of its own kept an average character width of 0, and
/// wrapping then broke a word that does not fit ("H-" / "i" instead of "Hi"), for as long as
/// that font lived (a worker's whole render). Each round here starts fresh font maps on fresh
/// threads at the same moment, so each round measures its fonts anew.
@Suite struct ConcurrentTextTests {
  /// "Hi" in a box narrower than the word (a `flick render --jobs 2` case of the review), and a
  /// wrapped bold text in another font (the two-font still).
  static let texts: [(text: TextContent, size: Size)] = [
    (TextContent(string: "Hi", fontFamily: "Inter", fontSize: 28), Size(width: 21.4, height: 47.9)),
    (
      TextContent(string: "Wrapped text here", fontFamily: "Inter", fontSize: 25.7, fontWeight: .bold),
      Size(width: 19.7, height: 140)
    ),
    (TextContent(string: "x", fontFamily: "Inter", fontSize: 17), Size(width: 40, height: 30)),
  ]

  /// Runs `body(i)` for each `i` in `0..<count` on `count` new threads released together, and
  /// returns the results in order.
  static func onNewThreads<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
    let results = Locked<[Int: T]>([:])
    let ready = DispatchSemaphore(value: 0)
    let go = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for i in 0..<count {
      done.enter()
      let thread = Thread {
        ready.signal()
        go.wait()
        let value = body(i)
        results.withLock { $0[i] = value }
        done.leave()
      }
      thread.start()
    }
    for _ in 0..<count { ready.wait() }
    for _ in 0..<count { go.signal() }
    done.wait()
    return results.withLock { results in (0..<count).compactMap { results[$0] } }
  }

  /// The laid-out size of each of ``texts`` in a fresh font map, the first of them in font
  /// `first` (so that threads measure different fonts at the same moment).
  static func sizes(first: Int) -> [Size] {
    let context = TextContext(ownFontMap: true)
    let order = Array(texts.indices[first...]) + Array(texts.indices[..<first])
    var out = Array(repeating: Size(width: -1, height: -1), count: texts.count)
    for i in order { out[i] = context.layout(texts[i].text, size: texts[i].size)?.size ?? out[i] }
    return out
  }

  @Test func textLaysOutAsAloneWhateverElseIsShaped() throws {
    try Pango.require(for: nil)
    let alone = Self.onNewThreads(1) { _ in Self.sizes(first: 0) }[0]
    // Alone, "Hi" overflows its box on one line.
    expectEqual(alone[0].height < 40, true)
    for _ in 0..<6 {
      let sizes = Self.onNewThreads(4) { i in Self.sizes(first: i % Self.texts.count) }
      for found in sizes { expectEqual(found, alone) }
    }
  }

  /// The scenes of the review: frames drawn on several threads at once (each thread's font map
  /// new) are the frame drawn alone.
  @Test func framesDrawnAtOnceAreTheFrameDrawnAlone() throws {
    try Pango.require(for: nil)
    let layers = Self.texts.enumerated().map { i, t in
      Layer(
        id: "t\(i)", bounds: Rect(x: 0, y: 0, width: t.size.width, height: t.size.height),
        position: Point(x: 30 + 60 * Double(i), y: 80), content: .text(t.text))
    }
    let tree = Raster.tree(layers, width: 200, height: 160)
    let alone = Self.onNewThreads(1) { _ in (try? Renderer().render(tree))?.pixels }[0]
    #expect(alone != nil)
    for _ in 0..<4 {
      for pixels in Self.onNewThreads(3, { _ in (try? Renderer().render(tree))?.pixels }) {
        let same = pixels == alone
        #expect(same, "a frame drawn beside others differs from the frame drawn alone")
      }
    }
  }

  /// A still's helpers shape two fonts at once, one in each lane: the frame is the frame drawn
  /// alone, every time.
  @Test func aStillsLanesDrawWhatOneThreadDraws() throws {
    try Pango.require(for: nil)
    guard ProcessInfo.processInfo.activeProcessorCount >= 2 else { return }
    let scene = Scene(
      size: Size(width: 200, height: 160), fps: 10, duration: 1,
      layers: Self.texts.enumerated().map { i, t in
        Layer(
          id: "t\(i)", bounds: Rect(x: 0, y: 0, width: t.size.width, height: t.size.height),
          position: Point(x: 30 + 60 * Double(i), y: 80), content: .text(t.text))
      })
    let tree = scene.renderTree(at: 0)
    let alone = Self.onNewThreads(1) { _ in (try? Renderer().render(tree))?.pixels }[0]
    for _ in 0..<5 {
      let shared = SharedText()
      shared.startHelper()
      shared.layOutEarly(scene)
      shared.layOutAhead(of: scene, at: [0])
      let same = try Renderer().render(tree, sharing: shared).pixels == alone
      #expect(same, "a still whose lanes shaped its fonts differs from the frame drawn alone")
    }
  }
}
