import FlickExpectations
import FlickMotion
import FlickTestSupport
import Foundation
import Testing

@testable import FlickStudio

#if canImport(Glibc)
  import Glibc
#endif

/// The studio honours the template caps as `flick still` does (options and variables), and its
/// messages name only what the studio accepts: no `--allow-outside-assets`, which it has not.
@Suite struct StudioTemplateCapsTests {
  /// The text `/api/template` answers for pulse.json5 from a `flick studio` started with
  /// `arguments` and `environment`.
  static func templateAnswer(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
    let h = try StudioHarness()
    let (process, url, err) = try StudioCommandTests.start(h.folder, arguments, environment: environment)
    defer {
      kill(process.processIdentifier, SIGTERM)
      process.waitUntilExit()
      _ = err.fileHandleForReading.readDataToEndOfFile()
    }
    let (port, token) = try StudioCommandTests.address(url)
    return try RawHTTP.request(
      port: port, method: "GET", target: "/api/template?template=pulse.json5&token=\(token)",
      host: "127.0.0.1:\(port)"
    ).text
  }

  @Test func theTemplateSizeCapIsReadFromTheVariableAndTheOption() throws {
    // pulse.json5 is 836 bytes.
    let byVariable = try Self.templateAnswer([], environment: ["FLICK_MAX_TEMPLATE_BYTES": "100"])
    #expect(byVariable.contains("more than the 100 bytes a template may be"), "\(byVariable)")
    let byOption = try Self.templateAnswer(["--max-template-bytes", "100"])
    #expect(byOption.contains("more than the 100 bytes a template may be"), "\(byOption)")
    // Sizes are written as other caps write them.
    expectEqual(ByteText.format(16 << 20), "16 MiB")
  }

  @Test func aPathOutOfTheFolderIsRefusedWithoutNamingAnOptionTheStudioLacks() throws {
    let outside = try ProcessRunner.temporaryDirectory(prefix: "flick-studio-outside")
    defer { try? FileManager.default.removeItem(at: outside) }
    try Data(StudioHarness.red).write(to: outside.appendingPathComponent("secret.png"))
    let template = """
      { flick: 1, canvas: { width: 40, height: 40, fps: 10, duration: 1, background: "#000000" },
        layers: [{ id: "a", size: [40, 40], position: [20, 20], contents: "out.png" }] }
      """
    let h = try StudioHarness(files: ["out.json5": template])
    try FileManager.default.createSymbolicLink(
      atPath: h.folder.appendingPathComponent("out.png").path,
      withDestinationPath: outside.appendingPathComponent("secret.png").path)
    let served = try h.get("/api/file?path=out.png")
    expectEqual(served.status, 403, "\(served.text)")
    #expect(served.text.contains("the studio serves only files inside the opened folder"), "\(served.text)")
    #expect(!served.text.contains("allow-outside-assets"), "\(served.text)")
    let loaded = try h.get("/api/template?template=out.json5").text
    #expect(loaded.contains("flick studio reads no asset outside the template's folder"), "\(loaded)")
    #expect(!loaded.contains("pass --allow-outside-assets"), "\(loaded)")
  }
}
