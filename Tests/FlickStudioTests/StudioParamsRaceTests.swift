import FlickExpectations
import FlickMotion
import FlickTestSupport
import Foundation
import Testing

@testable import FlickStudio

/// Parameters set from the page while a file change recompiles the template stay in effect.
@Suite struct StudioParamsRaceTests {
  static let source = """
    { flick: 1, parameters: { accent: { type: "color", default: "#FF0000" } },
      canvas: { width: 20, height: 20, fps: 10, duration: 1, background: "#000000" },
      layers: [{ id: "card", size: [10, 10], position: [10, 10], backgroundColor: "$accent" }] }
    """

  /// The accent the session's current template was compiled with.
  static func accent(_ session: TemplateSession) -> String? {
    guard let value = session.snapshot.template?.parameterValues["accent"], case .string(let s) = value.kind else {
      return nil
    }
    return s
  }

  /// A reload holds in its compile (read the old parameters) while new ones are set; it must not
  /// store what it compiled with the old ones.
  @Test func parametersSetDuringAReloadStayInEffect() throws {
    let folder = try ProcessRunner.temporaryDirectory(prefix: "flick-params-race")
    defer { try? FileManager.default.removeItem(at: folder) }
    // Only the reload's first compile (with no parameters set) is held.
    let (session, _, holding, release) = try Self.heldSession(in: folder) { $0.isEmpty }
    let reloaded = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      session.reload()
      reloaded.signal()
    }
    holding.wait()
    try session.setParameters(["accent=#00FF00"])
    release.signal()
    reloaded.wait()
    expectEqual(session.snapshot.assignments, ["accent=#00FF00"])
    expectEqual(Self.accent(session), "#00FF00")
    expectEqual(session.snapshot.error == nil, true)
  }

  /// Parameters compiled from the file as it was, while a reload of the changed file stored its
  /// compile, are compiled again from the file as it is.
  @Test func aReloadDuringSetParametersIsNotLost() throws {
    let folder = try ProcessRunner.temporaryDirectory(prefix: "flick-params-race")
    defer { try? FileManager.default.removeItem(at: folder) }
    let (session, path, holding, release) = try Self.heldSession(in: folder) { !$0.isEmpty }
    session.reload()
    let set = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      try? session.setParameters(["accent=#00FF00"])
      set.signal()
    }
    holding.wait()
    // The file changes under the held compile (which read it before) and a reload stores it.
    let wider = Self.source.replacingOccurrences(of: "width: 20", with: "width: 30")
    try Data(wider.utf8).write(to: URL(fileURLWithPath: path))
    session.reload()
    release.signal()
    set.wait()
    expectEqual(session.snapshot.template?.scene.size.width, 30)
    expectEqual(Self.accent(session), "#00FF00")
  }

  /// A session of `source` written into `folder`, whose first compile with assignments that
  /// `hold` picks signals `holding` and waits for `release`.
  static func heldSession(
    in folder: URL, holding hold: @escaping @Sendable ([String]) -> Bool
  ) throws -> (session: TemplateSession, path: String, holding: DispatchSemaphore, release: DispatchSemaphore) {
    let path = folder.appendingPathComponent("race.json5").path
    try Data(source.utf8).write(to: URL(fileURLWithPath: path))
    let holding = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let held = Locked(false)
    let session = TemplateSession(name: "race.json5", path: path, folder: folder.path) { assignments in
      guard hold(assignments),
        held.withLock({ h in
          defer { h = true }; return !h
        })
      else { return }
      holding.signal()
      release.wait()
    }
    return (session, path, holding, release)
  }
}
