import FlickExpectations
import Foundation
import Testing

/// Component instances through the built binary: `flick trace --layer instance/inner` reads an
/// inner layer's motion, and `flick info` marks instances with their component and parameters.
@Suite struct ComponentCommandTests {
  static let template = CLITests.root.appendingPathComponent("Templates/settings-toggles.json5").path

  @Test func traceAddressesAnInnerLayerByItsQualifiedID() throws {
    let r = try CLITests.run(
      CLITests.flick,
      ["trace", Self.template, "--layer", "wifi/knob", "--property", "positionX", "--times", "1,1.4,2.5"])
    expectEqual(r.status, 0, "\(r.stderr)")
    let rows = r.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",").compactMap { Double($0) } }
    // Off (x 15.5) before the play at 1.25 s, springing across at 1.4 s, on (35.5) after.
    #expect(rows.count == 3 && rows[0] == [1, 15.5, 0] && rows[2] == [2.5, 35.5, 0], "\(rows)")
    #expect(rows.count == 3 && rows[1][1] > 16 && rows[1][1] < 35.5 && rows[1][2] > 0, "\(rows)")
    let typo = try CLITests.run(
      CLITests.flick, ["trace", Self.template, "--layer", "wifi/knb", "--property", "positionX"])
    expectEqual(typo.status, 2, "\(typo.stderr)")
    #expect(typo.stderr.contains("did you mean 'wifi/knob'?"), "\(typo.stderr)")
  }

  @Test func infoShowsInstancesWithTheirComponentAndParameters() throws {
    let r = try CLITests.run(CLITests.flick, ["info", Self.template])
    expectEqual(r.status, 0, "\(r.stderr)")
    let wifi = r.stdout.split(separator: "\n").first { $0.hasPrefix("      wifi  ") } ?? ""
    #expect(wifi.contains("◇ toggleRow("), "\(wifi)")
    #expect(wifi.contains("label: \"Wi-Fi\""), "\(wifi)")
    #expect(r.stdout.contains("        wifi/knob  27×27"), "\(r.stdout)")
  }
}
