import CRSVG
import FlickExpectations
import FlickScene
import FlickTestSupport
import Foundation
import Testing

/// Flick's SVG check against librsvg itself (libxml2 parses for it): whatever document the
/// check accepts, every element librsvg finds by its id, the check's reader saw too. Seeds are
/// the tricks that hid markup (an encoding declaration, quoted literals and an internal subset
/// in a DOCTYPE) and ordinary exports; each is mutated many times by inserting the bytes that
/// change how XML is read (quotes, `>`, comment and CDATA delimiters, declarations, NUL, CR).
@Suite struct SVGCheckDifferentialTests {
  static let open = #"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8">"#
  /// What each seed hides: a harmless element librsvg finds by its id.
  static let hidden = #"<rect id="hidden" width="1" height="1"/>"#
  static let ids = ["hidden", "shown", "inner", "decoy"]

  static func utf7(_ text: String) -> String {
    let utf16 = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    return "+" + Data(utf16).base64EncodedString().replacingOccurrences(of: "=", with: "") + "-"
  }

  static let seeds: [String] = [
    "<?xml version=\"1.0\" encoding=\"UTF-7\"?>\(open)<g id=\"shown\"/>\(utf7(hidden))</svg>",
    "<?xml version='1.0' encoding='utf-16'?>\(open)<g id=\"shown\"/></svg>",
    "<!DOCTYPE svg SYSTEM \"><svg xmlns='http://www.w3.org/2000/svg' id='decoy'/><!--\">\(open)\(hidden)</svg><!---->",
    "<!DOCTYPE svg PUBLIC \"x\" '><!--' [<!ENTITY h '\(hidden)'>]>\(open)&h;</svg>",
    "\(open)<g id=\"shown\"><!-- \(hidden) --></g><style><![CDATA[ g > r { } ]]></style></svg>",
    "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!-- Generator: Adobe Illustrator -->\n"
      + "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n"
      + "\(open)<g id=\"shown\" data-x=\"a > b\"><rect id=\"inner\" width=\"1\" height=\"1\"/></g></svg>\n",
    "<?xml version=\"1.0\"?><?pi <rect id='hidden'/> ?>\(open)<text id=\"shown\">&#60;rect id=\"hidden\"/&#62;</text></svg>",
  ]

  static let insertions: [[UInt8]] =
    [
      ">", "\"", "'", "--", "<!--", "-->", "[", "]", "<![CDATA[", "]]>", "<?x ", "?>", "<!DOCTYPE svg SYSTEM \"",
      "\r", "\t", "&#60;", " encoding=\"UTF-7\"", "<", "/>", "<!ENTITY x \"y\">", "&x;",
    ].map { Array($0.utf8) } + [[0], [0xEF, 0xBB, 0xBF], [0xFE, 0xFF], [0xC0, 0xBC]]

  /// The ids of the elements the check's reader sees, or nil when the check refuses the bytes.
  static func idsSeen(_ bytes: [UInt8]) -> Set<String>? {
    guard (try? SVGDocumentCheck.check(Data(bytes), maximumPixels: 1 << 20)) != nil else { return nil }
    var tokens = XMLTokenizer(bytes: bytes)
    var seen: Set<String> = []
    while let token = try? tokens.next() {
      if case .start(_, let attributes, _, _) = token {
        for a in attributes where a.name == "id" { seen.insert(a.value) }
      }
    }
    return seen
  }

  /// The ids among ``ids`` librsvg finds in `bytes`, or nil when it does not load them.
  static func idsLibrsvgFinds(_ bytes: [UInt8]) -> Set<String>? {
    let handle = bytes.withUnsafeBufferPointer { rsvg_handle_new_from_data($0.baseAddress, gsize($0.count), nil) }
    guard let handle else { return nil }
    defer { g_object_unref(UnsafeMutableRawPointer(handle)) }
    return Set(ids.filter { rsvg_handle_has_sub(handle, "#" + $0) != 0 })
  }

  @Test func everyElementLibrsvgFindsTheCheckSaw() {
    var generator = SeededGenerator(seed: 0x5EC)
    var accepted = 0
    var cases: [[UInt8]] = []
    for seed in Self.seeds {
      let bytes = Array(seed.utf8)
      cases.append(bytes)
      for _ in 0..<150 {
        var mutated = bytes
        for _ in 0...(generator.next() % 2) {
          let at = Int(generator.next() % UInt64(mutated.count + 1))
          if generator.next() % 5 == 0, at < mutated.count {
            mutated.removeSubrange(at..<min(mutated.count, at + Int(generator.next() % 8) + 1))
          } else {
            mutated.insert(contentsOf: Self.insertions[Int(generator.next() % UInt64(Self.insertions.count))], at: at)
          }
        }
        cases.append(mutated)
      }
    }
    for bytes in cases {
      guard let seen = Self.idsSeen(bytes) else { continue }
      accepted += 1
      guard let found = Self.idsLibrsvgFinds(bytes) else { continue }
      let missed = found.subtracting(seen)
      #expect(
        missed.isEmpty,
        "librsvg finds \(missed.sorted()) the check did not see in \(String(decoding: bytes, as: UTF8.self).debugDescription)"
      )
    }
    // The mutations are not all refused: ordinary documents stay accepted.
    expectGreaterOrEqual(accepted, 100)
  }
}
