extension SnapshotReport {
  /// How a run ends, derived from ``passed`` alone so the exit status cannot disagree with the
  /// summary and the page.
  package enum Outcome: Equatable, Sendable {
    /// Every check matched (exit 0).
    case passed
    /// A check failed, or nothing was checked (exit 1), with the reason.
    case failed(String)
    /// A comparison could not run (exit 3).
    case couldNotRun(String)
  }

  /// The run's outcome: ``passed`` decides; an error among the verdicts makes a failed run one
  /// that could not run.
  package var outcome: Outcome {
    if passed { return .passed }
    if !errors.isEmpty { return .couldNotRun("comparison could not run") }
    if verdicts.isEmpty {
      return .failed(
        "nothing was compared (no frame and no motion golden to check): a run that checks nothing fails; "
          + "list the frames in the goldens' manifest.json, or record them with 'flick snapshot'")
    }
    let recorded = verdicts.filter { $0.status == .recorded }.count
    return .failed(recorded == failures.count ? "goldens recorded, not verified" : "snapshot mismatch")
  }
}
