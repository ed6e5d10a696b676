import FlickMotion

/// Schemas of the timing options (``TimelineCompiler/timingKeys`` of an entry, and the options
/// every spec takes in a `spring`, `decay` or `tween` object), typed by `MediaTiming.Ranges`,
/// the ranges their readers check.
extension TimelineCompiler {
  /// One definition per ranged timing option, which the entries and motion objects refer to.
  static var timingDefinitions: [(String, SchemaNode)] {
    typealias R = MediaTiming.Ranges
    return [
      ("timingDelay", TemplateSchema.number(in: R.delay)), ("timingSpeed", TemplateSchema.number(in: R.speed)),
      ("timingTimeOffset", TemplateSchema.number(in: R.timeOffset)),
      ("timingRepeatCount", TemplateSchema.number(in: R.repeatCount)),
      ("timingRepeatDuration", TemplateSchema.number(in: R.repeatDuration)),
    ]
  }

  /// The schema of each timing option, by its key.
  private static var timingOptionSchemas: [String: SchemaNode] {
    [
      "delay": .ref("timingDelay"), "repeatCount": .ref("timingRepeatCount"), "repeatForever": .ref("boolean"),
      "autoreverses": .ref("boolean"), "speed": .ref("timingSpeed"), "timeOffset": .ref("timingTimeOffset"),
      "repeatDuration": .ref("timingRepeatDuration"),
      "fill": ["enum": .strings(MediaTiming.FillMode.allCases.map(\.rawValue))],
    ]
  }

  /// The schema of each of ``timingKeys``.
  static var timingSchema: [(String, SchemaNode)] {
    let schemas = timingOptionSchemas
    return timingKeys.map { ($0, schemas[$0] ?? [:]) }
  }

  /// The schema of each timing option a spec takes (`MediaTiming.specLabels`).
  static var specTimingSchema: [(String, SchemaNode)] {
    let schemas = timingOptionSchemas
    return MediaTiming.specLabels.map { ($0, schemas[$0] ?? [:]) }
  }
}
