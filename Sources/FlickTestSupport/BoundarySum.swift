/// A time summed from decimal parts that lands a few ulps off the time of a frame: an entry
/// placed after motions of 0.1 s and 0.2 s starts at 0.30000000000000004, and the frame at 0.3 s
/// (frame 18 at 60 fps) must show it. The tests of the boundary rule
/// (`MediaTiming.hasReached(_:at:leftLimit:)`) place starts, ends and control calls at these sums.
package struct BoundarySum: Sendable, CustomStringConvertible {
  /// Frames per second, 1…1000.
  package var fps: Int
  /// The seconds summed, left to right.
  package var parts: [Double]
  /// The frame whose time the sum is a few ulps from.
  package var frame: Int

  package init(fps: Int, parts: [Double], frame: Int) {
    self.fps = fps
    self.parts = parts
    self.frame = frame
  }

  /// The frame's time, seconds.
  package var time: Double { Double(frame) / Double(fps) }
  /// The parts summed left to right, seconds.
  package var sum: Double { parts.reduce(0, +) }
  /// Every part but the last, summed: where the motion before the last part starts.
  package var lead: Double { parts.dropLast().reduce(0, +) }
  /// The last part, seconds.
  package var last: Double { parts[parts.count - 1] }
  package var description: String { "\(parts.map { "\($0)" }.joined(separator: " + ")) = \(sum) at \(fps) fps" }

  /// Sums above and below their frame's time, at 24, 30, 60 and 120 fps.
  package static let cases = [
    BoundarySum(fps: 60, parts: [0.1, 0.2], frame: 18), BoundarySum(fps: 60, parts: [0.1, 0.7], frame: 48),
    BoundarySum(fps: 30, parts: [0.1, 0.2], frame: 9), BoundarySum(fps: 30, parts: [0.1, 0.7], frame: 24),
    BoundarySum(fps: 120, parts: [0.05, 0.1], frame: 18), BoundarySum(fps: 120, parts: [0.05, 0.35], frame: 48),
    BoundarySum(fps: 24, parts: [0.05, 0.55, 0.15], frame: 18),
    BoundarySum(fps: 24, parts: [0.1, 0.35, 0.05], frame: 12),
  ]
}
