import FlickExpectations
import FlickScene
import Testing

@testable import FlickTemplates

/// `when` searches are bounded in total: a template waits for at most
/// ``TemplateLimits/maximumCrossingEntries`` crossings, and all its searches together read their
/// tracks at most ``TemplateLimits/maximumCrossingSamples`` times. Twenty 3 KB entries each
/// searching an hour of a linear tween took over a minute to load; now the entry that passes a
/// cap is refused where it is written. The caps are lowered here so the tests stay quick.
@Suite struct CrossingCapTests {
  /// `a` moves from 0 to 1000 over `seconds`; `entries` entries each wait for it to cross 999.
  static func template(seconds: Int, entries: Int) -> String {
    let wait =
      #"{ when: { target: "a", property: "positionX", crosses: 999 }, target: "b", animate: { opacity: 0.5 }, duration: 0.1 },"#
    return """
      { flick: 1, canvas: { width: 64, height: 64, fps: 1, duration: \(seconds) },
        layers: [ { id: "a", size: [10, 10] }, { id: "b", size: [10, 10] } ],
        timeline: [
          { at: 0, target: "a", animate: { positionX: 1000 }, duration: \(seconds), curve: "linear" },
      \(Array(repeating: wait, count: entries).joined(separator: "\n"))
        ] }
      """
  }

  static func load(_ text: String, samples: Int? = nil, entries: Int? = nil) throws -> Template {
    var options = TemplateOptions()
    if let samples { options.limits.maximumCrossingSamples = samples }
    if let entries { options.limits.maximumCrossingEntries = entries }
    return try Template.decode(text, file: "when.json5", options: options)
  }

  static func error(_ text: String, samples: Int? = nil, entries: Int? = nil) -> TemplateError? {
    do {
      _ = try load(text, samples: samples, entries: entries)
      return nil
    } catch {
      return error as? TemplateError
    }
  }

  @Test func theSearchesOfATemplateShareOneBudgetOfSamples() throws {
    // Each search reads about 1024 × 10 × 0.999 ≈ 10,230 samples: two fit in 25,000, three do not.
    let two = try Self.load(Self.template(seconds: 10, entries: 2), samples: 25_000)
    expectEqual(two.crossings.count, 2)
    for c in two.crossings { expectLess(abs(c.time - 9.99), 2e-9, "\(c.time)") }
    let e = try #require(Self.error(Self.template(seconds: 10, entries: 3), samples: 25_000))
    expectEqual(e.file, "when.json5")
    expectEqual(e.path, "timeline[3].when")
    expectEqual(e.line, 7)
    expectGreater(e.column, 1)
    #expect(
      e.message.hasPrefix(
        "finding this crossing passes the cap of 25000 track samples for all the template's 'when' entries together"),
      "\(e.message)")
    #expect(e.message.contains("this one had searched from 0 s to "), "\(e.message)")
    #expect(e.message.contains(" s of 10 s)"), "\(e.message)")
  }

  @Test func theDefaultBudgetHoldsOneSearchOfAnHourAndRefusesMore() throws {
    // 3,686,400 samples, the longest search, fit in 2²²; a second one does not.
    expectGreater(TemplateLimits().maximumCrossingSamples, 3600 * 1024)
    expectLess(TemplateLimits().maximumCrossingSamples, 2 * 3600 * 1024)
  }

  @Test func theNumberOfCrossingsIsCapped() throws {
    let three = try Self.load(Self.template(seconds: 1, entries: 3), entries: 3)
    expectEqual(three.crossings.count, 3)
    let e = try #require(Self.error(Self.template(seconds: 1, entries: 4), entries: 3))
    expectEqual(e.path, "timeline[4].when")
    #expect(e.message.hasPrefix("the template waits for more than 3 crossings"), "\(e.message)")
    // A repeat counts each iteration's crossing.
    let repeated = """
      { flick: 1, canvas: { width: 64, height: 64, fps: 1, duration: 10 },
        layers: [ { id: "a", size: [10, 10] }, { id: "b", size: [10, 10] } ],
        timeline: [ { repeat: 4, group: [
          { target: "a", set: { positionX: 0 } },
          { target: "a", animate: { positionX: 10 }, duration: 0.5, curve: "linear" },
          { when: { target: "a", property: "positionX", crosses: 5 }, target: "b", animate: { opacity: 0.5 }, duration: 0.1 } ] } ] }
      """
    expectEqual(try Self.load(repeated, entries: 4).crossings.count, 4)
    let r = try #require(Self.error(repeated, entries: 3))
    expectEqual(r.path, "timeline[0].group[2].when", "\(r)")
  }
}
