import FlickExpectations
import FlickScene
import Foundation
import Testing

/// ``SVGDocumentCheck`` reads the document libxml2 (librsvg's parser) reads, or refuses it: no
/// encoding, declaration or construct may make libxml2 see markup the check did not. Each trick
/// below is refused where it is; the ordinary exports around it are accepted.
@Suite struct SVGSyntaxAgreementTests {
  static let open = #"<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64">"#
  /// What each trick hides: librsvg panics on it (`order` over the cap).
  static let hidden = #"<filter id="f"><feConvolveMatrix order="21" kernelMatrix="1"/></filter>"#

  static func problem(_ bytes: [UInt8]) -> SVGDocumentCheck.Problem? {
    SVGDocumentCheckTests.problem(Data(bytes))
  }

  /// `text` in UTF-7 (every character as `+…-` base64 of its UTF-16), as p7.svg hid markup.
  static func utf7(_ text: String) -> String {
    let utf16 = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    return "+" + Data(utf16).base64EncodedString().replacingOccurrences(of: "=", with: "") + "-"
  }

  static func utf16(_ text: String, bigEndian: Bool) -> [UInt8] {
    text.utf16.flatMap { bigEndian ? [UInt8($0 >> 8), UInt8($0 & 0xFF)] : [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
  }

  /// Each trick: the bytes, a part of the message expected, and the line it names.
  static let tricks: [(name: String, bytes: [UInt8], message: String, line: Int)] = {
    func utf8(_ s: String) -> [UInt8] { Array(s.utf8) }
    let body = ##"<rect width="64" height="64" fill="#f00"/>"##
    return [
      ("UTF-7", utf8("<?xml version=\"1.0\" encoding=\"UTF-7\"?>\n\(open)\(utf7(hidden))</svg>"), "UTF-7", 1),
      (
        "utf-7, single quotes and spaces", utf8("<?xml version='1.0'  encoding = 'utf-7' ?>\n\(open)</svg>"), "utf-7", 1
      ),
      (
        "UTF-7 after a UTF-8 mark",
        [0xEF, 0xBB, 0xBF] + utf8("<?xml version=\"1.0\" encoding=\"UTF-7\"?>\(open)</svg>"),
        "UTF-7", 1
      ),
      ("Latin-1", utf8("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n\(open)</svg>"), "ISO-8859-1", 1),
      ("UTF-16 with its mark", [0xFE, 0xFF] + utf16("\(open)\(hidden)</svg>", bigEndian: true), "UTF-8", 1),
      (
        "UTF-16 without a mark", utf16("<?xml version=\"1.0\"?>\(open)</svg>", bigEndian: false), "control character 0",
        1
      ),
      ("invalid UTF-8", utf8("\(open)\n<text>") + [0xC0, 0xBC] + utf8("</text></svg>"), "not UTF-8", 2),
      ("NUL", utf8("\(open)\n<text>a") + [0] + utf8("</text></svg>"), "control character 0", 2),
      (
        "quoted '>' in a DOCTYPE",
        utf8("<!DOCTYPE svg SYSTEM \"><svg xmlns='http://www.w3.org/2000/svg'/><!--\">\n\(open)\(hidden)</svg><!---->"),
        "'<' or '>'", 1
      ),
      (
        "an internal subset after a quoted '>'",
        utf8("<!DOCTYPE svg SYSTEM \"a[b\" [<!ENTITY x \"\(hidden)\">]>\n\(open)&x;</svg>"), "declarations", 1
      ),
      ("an internal subset", utf8("<!DOCTYPE svg [\n<!ENTITY x \"y\">]>\(open)</svg>"), "declarations", 1),
      ("an entity declaration outside a DOCTYPE", utf8("\(open)\n<!ENTITY x \"y\"></svg>"), "<!DOCTYPE", 2),
      ("an ELEMENT declaration", utf8("<!ELEMENT svg ANY>\n\(open)</svg>"), "<!DOCTYPE", 1),
      ("a second DOCTYPE", utf8("<!DOCTYPE svg>\n<!DOCTYPE svg>\(open)</svg>"), "once", 2),
      ("a DOCTYPE inside the root", utf8("\(open)\n<!DOCTYPE svg></svg>"), "once", 2),
      ("a lower-case doctype", utf8("<!doctype svg>\n\(open)</svg>"), "<!DOCTYPE", 1),
      ("'--' in a comment", utf8("\(open)\n<!-- a -- b -->\(body)</svg>"), "'--'", 2),
      ("a comment ending '--->'", utf8("\(open)\n<!-- a --->\(body)</svg>"), "'--'", 2),
      ("an XML declaration later", utf8("\(open)\n<?xml version=\"1.0\" encoding=\"UTF-7\"?></svg>"), "start", 2),
      ("an XML declaration after space", utf8(" <?xml version=\"1.0\"?>\(open)</svg>"), "start", 1),
      ("an XML declaration without a version", utf8("<?xml encoding=\"UTF-8\"?>\(open)</svg>"), "version", 1),
      ("a second root", utf8("\(open)</svg>\n\(open)\(hidden)</svg>"), "second root", 2),
      ("text after the root", utf8("\(open)</svg>\nx"), "after the root", 2),
      ("an end tag with nothing open", utf8("\(open)</svg>\n</svg>"), "nothing is open", 2),
      ("CDATA outside the root", utf8("<![CDATA[x]]>\n\(open)</svg>"), "outside the root", 1),
      ("attributes without space", utf8("\(open)\n<rect width=\"4\"height=\"4\"/></svg>"), "white space", 2),
      ("a name with a quote", utf8("\(open)\n<rect\"a=\"1\"/></svg>"), "XML name", 2),
      ("an unclosed comment", utf8("\(open)\n<!-- \(hidden)</svg>"), "not closed", 2),
      ("an unclosed CDATA section", utf8("\(open)\n<style><![CDATA[ x </style></svg>"), "not closed", 2),
      ("an unclosed DOCTYPE literal", utf8("<!DOCTYPE svg SYSTEM 'x\(open)</svg>"), "not closed", 1),
    ]
  }()

  @Test(arguments: tricks.indices)
  func aTrickIsRefusedWhereItIs(index: Int) throws {
    let trick = Self.tricks[index]
    let problem = try #require(Self.problem(trick.bytes), "\(trick.name)")
    #expect(problem.message.contains(trick.message), "\(trick.name): \(problem.message)")
    expectEqual(problem.line, trick.line, "\(trick.name): \(problem)")
  }

  /// What Figma, Inkscape and Illustrator write, and the other ordinary forms: accepted.
  static let ordinary: [(name: String, text: String)] = [
    (
      "Figma",
      #"<svg width="64" height="64" viewBox="0 0 64 64" fill="none" xmlns="http://www.w3.org/2000/svg">"#
        + "\n" + ##"<rect width="64" height="64" rx="8" fill="#F24E1E"/>"## + "\n</svg>\n"
    ),
    (
      "Inkscape",
      "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\r\n<!-- Created with Inkscape (http://www.inkscape.org/) -->\r\n\r\n"
        + "<svg\r\n   width=\"64\"\r\n   height=\"64\"\r\n   xmlns:inkscape=\"http://www.inkscape.org/namespaces/inkscape\"\r\n"
        + "   xmlns:sodipodi=\"http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd\"\r\n   xmlns=\"http://www.w3.org/2000/svg\">\r\n"
        + "  <sodipodi:namedview id=\"namedview1\" inkscape:zoom=\"1.5\" />\r\n"
        + "  <g inkscape:label=\"Layer 1\" inkscape:groupmode=\"layer\" id=\"layer1\">\r\n"
        + "    <rect style=\"fill:#ff0000;stroke-width:0.26\" id=\"rect1\" width=\"64\" height=\"64\" x=\"0\" y=\"0\" />\r\n"
        + "  </g>\r\n</svg>\r\n"
    ),
    (
      "Illustrator",
      "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
        + "<!-- Generator: Adobe Illustrator 27.0.0, SVG Export Plug-In . SVG Version: 6.00 Build 0)  -->\n"
        + "<svg version=\"1.1\" id=\"Layer_1\" xmlns=\"http://www.w3.org/2000/svg\" "
        + "xmlns:xlink=\"http://www.w3.org/1999/xlink\" x=\"0px\" y=\"0px\"\n\t viewBox=\"0 0 64 64\" "
        + "style=\"enable-background:new 0 0 64 64;\" xml:space=\"preserve\">\n<style type=\"text/css\">\n"
        + "\t.st0{fill:#FF0000;}\n</style>\n<rect class=\"st0\" width=\"64\" height=\"64\"/>\n</svg>\n"
    ),
    (
      "SVG 1.1 DOCTYPE",
      "<?xml version=\"1.0\" standalone=\"no\"?>\n<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \n"
        + "  \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n\(open)<rect width=\"4\" height=\"4\"/></svg>"
    ),
    ("a bare DOCTYPE and a UTF-8 mark", "\u{FEFF}<!DOCTYPE svg>\(open)</svg>"),
    ("a SYSTEM DOCTYPE", "<!DOCTYPE svg SYSTEM 'svg11.dtd' >\(open)</svg>"),
    (
      "CDATA style sheet, comments, PIs",
      "<?xml version='1.0' encoding='UTF-8'?>\n<?inkscape x?>\(open)<!-- a - b --><style><![CDATA[ rect > g { fill: red } ]]></style>"
        + "<text>&#60;tag&#62; &amp; Ünïcödé 👍</text></svg>\n<!-- end -->\n"
    ),
    (
      "attribute values with '>' and line breaks",
      "\(open)<rect data-x=\"a > b\" data-y='it\"s' width=\"4\"\n\theight=\"4\" transform=\"translate(1\r\n2)\"/></svg>"
    ),
  ]

  @Test(arguments: ordinary.indices)
  func anOrdinaryExportIsAccepted(index: Int) {
    let problem = Self.problem(Array(Self.ordinary[index].text.utf8))
    #expect(problem == nil, "\(Self.ordinary[index].name): \(String(describing: problem))")
  }
}
