extension FrameSchedule {
  /// Hands one output the frames it keeps, in order: the render delivers the frames some output
  /// keeps, and each output takes its own.
  ///
  /// A kept frame repeats the one the output kept before it (``PreparedFrame/repeatsPrevious``)
  /// exactly when every frame since did, rendered or not (the pipeline's flags already chain
  /// through the frames it left out), so an output's merges do not depend on the other outputs.
  package struct Delivery: Sendable {
    /// The output served.
    package let output: Output
    /// The scene frame number of the render's first frame.
    private let first: Int
    /// Frames kept so far.
    private var kept = 0
    /// Whether every frame delivered since the last one kept repeated the one before it.
    private var unchangedSinceKept = true

    /// A delivery for `output` of a render whose first scene frame is `first`.
    package init(_ output: Output, first: Int) {
      self.output = output
      self.first = first
    }

    /// `frame` as the output gets it, or nil when the output does not keep it.
    package mutating func admit(_ frame: PreparedFrame) -> PreparedFrame? {
      guard let repeats = admit(position: frame.index - first, repeatsPrevious: frame.repeatsPrevious) else {
        return nil
      }
      var frame = frame
      frame.repeatsPrevious = repeats
      return frame
    }

    /// Whether the output keeps the frame at `position` in the render (positions delivered in
    /// order, from 0), which repeats the frame before it when `repeatsPrevious`: nil when the
    /// output does not keep it, else whether it repeats the frame the output kept before it.
    package mutating func admit(position: Int, repeatsPrevious: Bool) -> Bool? {
      unchangedSinceKept = unchangedSinceKept && repeatsPrevious
      guard output.keeps(position: position) else { return nil }
      let repeats = kept > 0 && unchangedSinceKept
      unchangedSinceKept = true
      kept += 1
      return repeats
    }
  }
}
