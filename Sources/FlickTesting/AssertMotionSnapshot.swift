import FlickMotion
import FlickScene
import FlickSnapshot
import FlickTemplates
import Foundation

/// Checks a template's motion against a motion golden stored next to the test file: every
/// animated property's value and velocity at every frame time and event time, compared number
/// by number (relative tolerance 10⁻⁶ of each property's travel), without rendering.
///
/// The golden lives at `<test file's folder>/__Snapshots__/<TestFile>/<name>.motion.txt` (the
/// format of `flick snapshot --motion`). Record modes work as in `assertFrameSnapshot`: a written
/// golden fails the test once, saying a re-run verifies it.
///
/// ```swift
/// @Test func cardSprings() {
///   assertMotionSnapshot(of: "Templates/card-swap.json5")
/// }
/// ```
///
/// - Returns: What changed (empty when the motion matches or a golden was written).
@discardableResult
public func assertMotionSnapshot(
  of templatePath: String, parameters: [String: String] = [:], named name: String? = nil,
  record: RecordMode? = nil, snapshotDirectory: String? = nil,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, function: String = #function,
  line: UInt = #line, column: UInt = #column
) -> [String] {
  let location = FrameSnapshotLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  guard let template = location.loadTemplate(templatePath, parameters: parameters) else { return [] }
  let environment = ProcessInfo.processInfo.environment
  let mode: RecordMode
  if let record {
    mode = record
  } else if let text = environment["FLICK_RECORD"], !text.isEmpty, let m = RecordMode(text: text) {
    mode = m
  } else {
    mode = RecordMode.defaultMode(environment: environment)
  }
  let testFile = URL(fileURLWithPath: "\(filePath)")
  let directory =
    snapshotDirectory
    ?? testFile.deletingLastPathComponent().appendingPathComponent("__Snapshots__")
    .appendingPathComponent(testFile.deletingPathExtension().lastPathComponent).path
  let path = (directory as NSString).appendingPathComponent(
    "\(name ?? FrameSnapshotLocation.sanitize(function)).motion.txt")
  let scene = template.scene
  func write(_ why: String) -> [String] {
    let times = MotionGolden.sampleTimes(tracks: template.tracks, duration: scene.duration, fps: scene.fps)
    let golden = MotionGolden.record(tracks: template.tracks, at: times)
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      try AtomicDestination.write(Data(golden.text.utf8), to: path)
      location.fail("\(escaped: why); recorded \(quoted: path); re-run without recording to verify it")
    } catch {
      location.fail("cannot write the motion golden \(quoted: path): \(escaped: MessageText.reason(error))")
    }
    return []
  }
  // A golden may come with someone else's pull request: one bounded read, no FIFO wait.
  let data: [UInt8]
  do {
    data = try AssetFile.read(path, maximumBytes: ContainedPath.maximumTextBytes, kind: "a motion golden")
  } catch  where error.isMissing {
    guard mode != .none else {
      location.fail("no motion golden at \(quoted: path) (record mode none: not written)")
      return []
    }
    return write("no motion golden was found")
  } catch {
    location.fail("cannot read the motion golden \(quoted: path): \(quoted: error.reason)")
    return []
  }
  let golden: MotionGolden
  do {
    golden = try MotionGolden(text: String(decoding: data, as: UTF8.self))
  } catch {
    if mode == .all || mode == .failed { return write("the old motion golden was unreadable") }
    location.fail("damaged motion golden \(quoted: path): \(escaped: error.description)")
    return []
  }
  let comparison = MotionComparison(golden: golden, tracks: template.tracks)
  if mode == .all || (mode == .failed && !comparison.passed) { return write("re-recording (mode \(mode.rawValue))") }
  let changes = comparison.differences.map(\.summary)
  if !changes.isEmpty {
    location.fail(
      "Motion snapshot \(quoted: path) changed:\n  " + changes.map { "\(escaped: $0)" }.joined(separator: "\n  "))
  }
  return changes
}
