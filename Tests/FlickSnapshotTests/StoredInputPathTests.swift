import FlickExpectations
import FlickSnapshot
import Foundation
import Testing

/// A stored input's path in a goldens manifest (from a pull request) is split as the kernel
/// splits it: a `..` that a combining mark after its `/` hid from a Character split is refused.
@Suite struct StoredInputPathTests {
  /// Inputs as a manifest holds them: the template at `path`.
  static func inputs(_ path: String) throws -> SnapshotInputs {
    let file: [String: Any] = ["path": path, "sha256": String(repeating: "0", count: 64), "bytes": 1]
    let json: [String: Any] = [
      "template": file, "assets": [], "parameterFiles": [], "sets": [], "allowOutsideAssets": false,
    ]
    return try JSONDecoder().decode(SnapshotInputs.self, from: JSONSerialization.data(withJSONObject: json))
  }

  @Test(arguments: ["../\u{301}x.json5", "a/../\u{301}/../\u{301}/t.json5", "../x.json5", "/abs.json5", "a//b.json5"])
  func aPathLeavingTheFolderIsRefused(path: String) throws {
    _ = try Self.inputs(path)
    #expect(throws: SnapshotError.self) { try Self.inputs(path).validate(path: "manifest.json") }
  }

  @Test func aPathInsideIsAccepted() throws {
    try Self.inputs("sub/t\u{301}.json5").validate(path: "manifest.json")
  }
}
