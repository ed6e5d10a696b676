import FlickMotion
import FlickRaster
import FlickScene
@_exported import FlickSnapshot
import FlickTemplates
import Foundation
import Testing

#if canImport(XCTest)
  import XCTest
#endif

/// Checks frames of a template against golden PNGs stored next to the test file, for Swift
/// Testing and XCTest.
///
/// Goldens live at `<test file's folder>/__Snapshots__/<TestFile>/<name>.<label>.png`, where
/// `name` defaults to the test function's name and `label` is the time's label (`25pct`, `end`).
///
/// The comparison is exact when the golden was drawn by this renderer (the fingerprint Flick
/// stores in every golden it writes) or its renderer is unknown, and perceptual when another
/// renderer drew it; `options` can force either (``ComparisonOptions/mode``).
///
/// A run that writes a golden never passes: whatever the record mode, every golden written fails
/// the test with a line naming it and saying a re-run verifies it (as swift-snapshot-testing
/// does). The record mode comes from `record:`, else the `FLICK_RECORD` environment variable
/// (`missing`, `all`, `failed`, `none`), else `none` when `CI` is set and `missing` otherwise.
///
/// On a failure the golden, the actual frame, the diff image, a labelled side-by-side composite,
/// a zoomed crop of the change and a flicker animation go to
/// `$FLICK_ARTIFACTS/<TestFile>/<name>.<label>/` (a temporary folder when unset), the failure
/// message names them, and under Swift Testing the golden, actual and diff PNGs are attached
/// to the test (`Attachment`).
///
/// ```swift
/// @Test func cardGlides() {
///   assertFrameSnapshot(of: "Templates/hello.json5", at: [.percent(0), .percent(50), .end])
/// }
/// ```
///
/// - Parameters:
///   - templatePath: The template file (relative paths resolve against the current directory).
///   - parameters: Parameter values by name, as text (what `--set NAME=VALUE` takes).
///   - times: The times to check; default 0, 25, 50, 75 and 100 % of the duration.
///   - name: The golden name; default the test function's name.
///   - scale: Pixels per point; default 1, or smaller so the frame is at most `maxWidth` wide.
///   - maxWidth: With no `scale`, shrink frames wider than this many pixels (keeps goldens small).
///   - options: The comparison tolerance.
///   - record: The record mode, overriding the environment.
///   - snapshotDirectory: Store goldens here instead of `__Snapshots__/<TestFile>`.
/// - Returns: One verdict per time (also when the test has failed).
@discardableResult
public func assertFrameSnapshot(
  of templatePath: String, parameters: [String: String] = [:], at times: [SnapshotTime] = SnapshotTime.quarters,
  named name: String? = nil,
  scale: Double? = nil, maxWidth: Int? = nil, options: ComparisonOptions = ComparisonOptions(),
  record: RecordMode? = nil, snapshotDirectory: String? = nil,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, function: String = #function,
  line: UInt = #line, column: UInt = #column
) -> [FrameVerdict] {
  let location = FrameSnapshotLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  guard let template = location.loadTemplate(templatePath, parameters: parameters) else { return [] }
  return assertFrameSnapshot(
    of: template.scene, at: times, named: name, scale: scale, maxWidth: maxWidth, options: options,
    record: record, snapshotDirectory: snapshotDirectory, fileID: fileID, filePath: filePath,
    function: function, line: line, column: column)
}

/// Checks frames of a `Scene` against golden PNGs stored next to the test file.
///
/// Goldens, record modes and artefacts work as in the template-path overload above.
@discardableResult
public func assertFrameSnapshot(
  of scene: Scene, at times: [SnapshotTime] = SnapshotTime.quarters, named name: String? = nil,
  scale: Double? = nil, maxWidth: Int? = nil, options: ComparisonOptions = ComparisonOptions(),
  record: RecordMode? = nil, snapshotDirectory: String? = nil,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, function: String = #function,
  line: UInt = #line, column: UInt = #column
) -> [FrameVerdict] {
  let location = FrameSnapshotLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  let environment = ProcessInfo.processInfo.environment
  let mode: RecordMode
  if let record {
    mode = record
  } else if let text = environment["FLICK_RECORD"], !text.isEmpty {
    guard let m = RecordMode(text: text) else {
      location.fail("FLICK_RECORD must be missing, all, failed or none; found '\(quoted: text)'")
      return []
    }
    mode = m
  } else {
    mode = RecordMode.defaultMode(environment: environment)
  }
  let testFile = URL(fileURLWithPath: "\(filePath)")
  let testName = testFile.deletingPathExtension().lastPathComponent
  let directory =
    snapshotDirectory
    ?? testFile.deletingLastPathComponent().appendingPathComponent("__Snapshots__")
    .appendingPathComponent(testName).path
  let baseName = name ?? FrameSnapshotLocation.sanitize(function)
  let artifactsRoot =
    environment["FLICK_ARTIFACTS"].flatMap { $0.isEmpty ? nil : $0 }
    ?? FileManager.default.temporaryDirectory.appendingPathComponent("flick-artifacts").path
  let artifacts = (artifactsRoot as NSString).appendingPathComponent(testName)
  let pixelScale = scale ?? maxWidth.map { min(1, Double($0) / max(1, scene.size.width)) } ?? 1

  let verifier = GoldenVerifier(
    comparator: ImageComparator(options: options), record: mode, claimsArtifactsFolder: false)
  var verdicts: [FrameVerdict] = []
  for time in times {
    let label = "\(baseName).\(time.label)"
    let golden = (directory as NSString).appendingPathComponent("\(label).png")
    var seconds: Double?
    let frame: Result<Frame, SnapshotError>
    do {
      let t = try time.seconds(duration: scene.duration, fps: scene.fps)
      seconds = t
      frame = .success(try Renderer(scale: pixelScale).render(scene.renderTree(at: t)))
    } catch let error as SnapshotError {
      frame = .failure(error)
    } catch {
      frame = .failure(.renderFailed("\(escaped: error)"))
    }
    let verdict = verifier.verify(
      frame, goldenPath: golden, name: label, time: time.description, seconds: seconds,
      artifactsDirectory: artifacts)
    verdicts.append(verdict)
    if options.mode == .automatic, let c = verdict.comparison, !c.exact {
      // Goldens from another renderer: said loudly, as `flick verify` says it.
      StandardStream.writeError(
        "WARNING: frame snapshot \(quoted: label): \(escaped: c.modeReason); colours still count "
          + "(ΔE_OK > \(quoted: options.colorJND)), "
          + "anti-aliasing does not; re-record the golden on this renderer to compare exactly\n")
    }
    if !verdict.isPass {
      var message =
        "Frame snapshot \(quoted: label) (\(quoted: time.description)): \(verdict.status.rawValue): "
        + "\(escaped: verdict.message)"
      for kind in ["diff", "sideBySide", "zoom", "flicker", "actual", "expected"] {
        if let path = verdict.artifacts[kind] { message += "\n  \(quoted: kind): \(quoted: path)" }
      }
      location.fail(message)
      location.attach(verdict.artifacts, label: label)
    }
  }
  return verdicts
}

/// Where an assertion was written, and how to report a failure there under Swift Testing or XCTest.
struct FrameSnapshotLocation {
  var fileID: StaticString
  var filePath: StaticString
  var line: UInt
  var column: UInt

  /// Loads the template with `parameters` (`--set` texts, applied in name order), or records why
  /// it cannot be loaded as a failure here and returns nil.
  func loadTemplate(_ path: String, parameters: [String: String]) -> Template? {
    do {
      var values = ParameterValues()
      for (key, text) in parameters.sorted(by: { $0.key < $1.key }) { values.set(key, text: text) }
      return try Template.load(path: path, parameters: values)
    } catch {
      fail("cannot load template: \(escaped: error.description)")
      return nil
    }
  }

  /// Records a failure: an `Issue` inside a Swift Testing test, otherwise `XCTFail`.
  func fail(_ message: String) {
    #if canImport(XCTest)
      if Test.current == nil {
        XCTFail(message, file: filePath, line: line)
        return
      }
    #endif
    Issue.record(
      Comment(rawValue: message),
      sourceLocation: SourceLocation(
        fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column)))
  }

  /// Attaches the golden, actual and diff PNGs to the current Swift Testing test, when there is
  /// one and the toolchain has `Attachment` (Swift 6.2 and later).
  func attach(_ artifacts: [String: String], label: String) {
    #if compiler(>=6.2)
      guard Test.current != nil else { return }
      for (kind, name) in [("expected", "golden"), ("actual", "actual"), ("diff", "diff"), ("zoom", "zoom")] {
        guard let path = artifacts[kind], let data = FileManager.default.contents(atPath: path) else { continue }
        Attachment.record(
          [UInt8](data), named: "\(label).\(name).png",
          sourceLocation: SourceLocation(
            fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column)))
      }
    #endif
  }

  /// A function name as a file-name-safe golden name: `cardGlides()` → `cardGlides`.
  static func sanitize(_ function: String) -> String {
    let base = function.split(separator: "(").first.map(String.init) ?? function
    let cleaned = base.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" }
    let text = String(cleaned).trimmingCharacters(in: CharacterSet(charactersIn: "-"))
    return text.isEmpty ? "snapshot" : text
  }
}
