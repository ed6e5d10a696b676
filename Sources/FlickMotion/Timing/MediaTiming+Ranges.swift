extension MediaTiming {
  /// The timing options every spec takes by label (`spring(…, delay: 0.2, repeatCount: 2)`, and
  /// the members of a template's `spring`, `decay` and `tween` objects).
  package static let specLabels = ["delay", "repeatCount", "repeatForever", "autoreverses", "timeOffset", "fill"]

  /// The values a template or a spec may give each timing option: what the readers check
  /// (`SpecArguments.timing()`, the template's timing keys) and what the template schema states.
  package enum Ranges {
    /// `delay` (``MediaTiming/beginTime``), seconds.
    package static let delay: ClosedRange<Double> = 0...3600
    /// ``MediaTiming/speed``: from a thousandth to a thousand times.
    package static let speed: ClosedRange<Double> = 0.001...1000
    /// ``MediaTiming/timeOffset``, seconds.
    package static let timeOffset: ClosedRange<Double> = -3600...3600
    /// ``MediaTiming/repeatCount``.
    package static let repeatCount: ClosedRange<Double> = 0...1_000_000
    /// ``MediaTiming/repeatDuration``, seconds.
    package static let repeatDuration: ClosedRange<Double> = 0...3600
  }
}
