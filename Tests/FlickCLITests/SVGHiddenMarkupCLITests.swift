import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// SVG pictures that hide markup from Flick's check (libxml2 under librsvg would read it) through
/// the real binary: each is refused up front with exit 2 and the picture's line and column, by
/// every command that loads it, instead of crashing or hanging librsvg.
@Suite struct SVGHiddenMarkupCLITests {
  static let open = #"<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64">"#
  static let red = ##"<rect width="64" height="64" fill="#f00"/>"##

  static func template(_ picture: String) -> String {
    "{ flick: 1, canvas: { width: 64, height: 64, fps: 1, duration: 1 }, "
      + "layers: [{ id: 'a', size: [64, 64], position: [32, 32], contents: '\(picture)' }] }"
  }

  @Test func hiddenMarkupIsRefusedByEveryCommand() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let crash = #"<filter id="f"><feConvolveMatrix order="21" kernelMatrix="1"/></filter>"#
    // UTF-7 spells markup as `+…-` base64 of its UTF-16: to a reader of UTF-8 it is text.
    let utf16 = crash.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    let hidden7 = "+" + Data(utf16).base64EncodedString().replacingOccurrences(of: "=", with: "") + "-"
    let pictures: [(name: String, text: String, message: String)] = [
      ("p7.svg", "<?xml version=\"1.0\" encoding=\"UTF-7\"?>\n\(Self.open)\(Self.red)\(hidden7)</svg>", "line 1"),
      (
        "dt.svg",
        "<!DOCTYPE svg SYSTEM \"><svg xmlns='http://www.w3.org/2000/svg' width='64' height='64'/><!--\">\n"
          + "\(Self.open)\(crash)</svg><!---->", "line 1"
      ),
      ("ient.svg", "<!DOCTYPE svg SYSTEM \"a\" [<!ENTITY x \"\(crash)\">]>\n\(Self.open)&x;</svg>", "line 1"),
    ]
    for picture in pictures {
      try Data(picture.text.utf8).write(to: dir.appendingPathComponent(picture.name))
      let t = try HostileCLITests.write(Self.template(picture.name), "\(picture.name).json5", in: dir)
      let commands = [
        ["info", t],
        ["still", t, "-o", dir.appendingPathComponent("s.png").path],
        ["snapshot", t, "--out", dir.appendingPathComponent("golden").path],
      ]
      for args in commands {
        let r = try HostileCLITests.run(args)
        expectEqual(r.status, 2, "\(picture.name) \(args[0]): \(r.stderr)")
        #expect(r.stderr.contains(picture.name) && r.stderr.contains(picture.message), "\(args[0]): \(r.stderr)")
      }
    }
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("s.png").path))
  }

  /// An Illustrator export (XML declaration, generator comment, SVG 1.1 DOCTYPE, a style sheet)
  /// draws the same pixels as the bare picture.
  @Test func anOrdinaryExportDrawsAsTheBarePicture() throws {
    let dir = try CLITests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let export =
      "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!-- Generator: Adobe Illustrator 27.0.0, SVG Export Plug-In -->\n"
      + "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n"
      + "<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"64\" height=\"64\" xml:space=\"preserve\">\n"
      + "<style type=\"text/css\"><![CDATA[ .st0{fill:#FF0000;} ]]></style>\n"
      + "<rect class=\"st0\" width=\"32\" height=\"64\"/>\n</svg>\n"
    let bare = "\(Self.open)<rect fill=\"#FF0000\" width=\"32\" height=\"64\"/></svg>"
    var pngs: [Data] = []
    for (name, text) in [("export.svg", export), ("bare.svg", bare)] {
      try Data(text.utf8).write(to: dir.appendingPathComponent(name))
      let t = try HostileCLITests.write(Self.template(name), "\(name).json5", in: dir)
      let png = dir.appendingPathComponent("\(name).png")
      let r = try HostileCLITests.run(["still", t, "-o", png.path])
      expectEqual(r.status, 0, "\(name): \(r.stderr)")
      pngs.append(try Data(contentsOf: png))
    }
    #expect(pngs[0] == pngs[1])
  }
}
