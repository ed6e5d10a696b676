import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// Text draws the same bytes whatever the machine's or the user's fontconfig settings say about
/// rendering: a desktop's font settings (`~/.config/fontconfig/fonts.conf` with subpixel order,
/// slight hinting, an LCD filter, antialiasing off) and Debian's own option files turned on
/// system-wide (`dpkg-reconfigure fontconfig-config`) gave text colour fringes or jagged edges.
@Suite struct FontSettingsCLITests {
  static let template =
    "{ flick: 1, canvas: { width: 240, height: 80, fps: 10, duration: 0.1, background: '#FFFFFF' }, "
    + "layers: [{ id: 't', type: 'text', size: [220, 60], position: [120, 40], "
    + "string: 'Flick 123 Ágy', fontSize: 28, textColor: '#1F2937' }] }"

  static func fontconfig(_ body: String) -> String {
    "<?xml version=\"1.0\"?>\n<!DOCTYPE fontconfig SYSTEM \"urn:fontconfig:fonts.dtd\">\n<fontconfig>\n"
      + body + "\n</fontconfig>\n"
  }

  static let userSettings = fontconfig(
    """
    <match target="font">
      <edit name="rgba" mode="assign"><const>rgb</const></edit>
      <edit name="hintstyle" mode="assign"><const>hintslight</const></edit>
      <edit name="lcdfilter" mode="assign"><const>lcddefault</const></edit>
    </match>
    """)

  static let noAntialiasing = fontconfig(
    """
    <match target="font"><edit name="antialias" mode="assign"><bool>false</bool></edit></match>
    """)

  @Test func userAndSystemFontSettingsLeaveTextPixelsAlone() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let template = try HostileCLITests.write(Self.template, "text.json5", in: dir)
    func still(_ name: String, _ environment: [String: String]) throws -> Data {
      let out = dir.appendingPathComponent(name + ".png").path
      let r = try HostileCLITests.run(["still", template, "-q", "-o", out], environment: environment)
      expectEqual(r.status, 0, "\(name): \(r.stderr)")
      return (try? Data(contentsOf: URL(fileURLWithPath: out))) ?? Data()
    }
    let plain = try still("plain", [:])
    #expect(!plain.isEmpty)
    // A user's settings, as a desktop writes them (two homes: subpixel, and no antialiasing).
    for (name, conf) in [("user-subpixel", Self.userSettings), ("user-aliased", Self.noAntialiasing)] {
      let home = dir.appendingPathComponent(name)
      let folder = home.appendingPathComponent(".config/fontconfig")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Data(conf.utf8).write(to: folder.appendingPathComponent("fonts.conf"))
      let pixels = try still(name, ["HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path])
      #expect(pixels == plain, "\(name): text pixels changed")
    }
    // The system's: Debian's option files, included after its own configuration.
    let available = "/usr/share/fontconfig/conf.avail/"
    for option in ["10-sub-pixel-rgb.conf", "10-sub-pixel-bgr.conf", "10-no-antialias.conf", "10-hinting-full.conf"]
    where FileManager.default.fileExists(atPath: available + option) {
      let conf = dir.appendingPathComponent(option)
      try Data(
        Self.fontconfig(
          "<include ignore_missing=\"yes\">/etc/fonts/fonts.conf</include>\n<include>\(available + option)</include>"
        ).utf8
      ).write(to: conf)
      let pixels = try still(option, ["FONTCONFIG_FILE": conf.path])
      #expect(pixels == plain, "\(option): text pixels changed")
    }
  }
}
