import FlickTemplates
import Foundation

/// What loading a timeline fixture, or a template made of a timeline, gives: the error's text,
/// or "no error" when it loads (the refusal tests read the text).
enum TimelineFixtureErrors {
  static func path(_ name: String) -> String {
    FixturePaths.fixtures.appendingPathComponent("timeline/\(name)").path
  }

  /// The error loading the fixture `name` gives ("no error" when it loads).
  static func error(_ name: String) -> String {
    do {
      _ = try Template.load(path: path(name))
      return "no error"
    } catch {
      return error.description
    }
  }

  /// The error ``JoinTimingTests/template(_:)`` gives for `timeline` ("no error" when it loads).
  static func error(timeline: String) -> String {
    do {
      _ = try JoinTimingTests.template(timeline)
      return "no error"
    } catch {
      return "\(error)"
    }
  }
}
