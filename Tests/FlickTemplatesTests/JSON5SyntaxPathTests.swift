import FlickExpectations
import Foundation
import Testing

@testable import FlickTemplates

/// Every JSON5 syntax error names the JSON path of where it is, as every other problem does
/// (docs/templates.md, "Errors"): the value being read (`layers[0].id` for a string not closed),
/// else the object or array being read (`layers[0].size` for a missing comma). Only a duplicate
/// key named one (`s1.json5:2:26: expected ',' or ']' in array`, with no path, was the report).
@Suite struct JSON5SyntaxPathTests {
  @Test(arguments: [
    // The objects' and arrays' own punctuation: the container's path.
    (#"{ layers: [{ id: "a", size: [10 10] }] }"#, "1:33: layers[0].size: expected ',' or ']' in array, found '1'"),
    (#"{ layers: [{ id: "a" size: 1 }] }"#, "1:22: layers[0]: expected ',' or '}' in object, found 's'"),
    (#"{ a: { b: [1, 2, { c: 1 "#, "1:25: a.b[2]: expected ',' or '}' in object, found end of input"),
    (#"{ a: [{ 1: 2 }] }"#, "1:9: a[0]: expected a key or '}', found '1'"),
    (#"{ a: { b c: 1 } }"#, "1:10: a: expected ':' after key 'b', found 'c'"),
    (#"{ a: [[[ /* open "#, "1:10: a[0][0]: unterminated block comment"),
    (#"{ a: { b: 1, b: 2 } }"#, "1:14: a.b: duplicate key 'b'"),
    // The values: the value's own path.
    (#"{ a: { b: } }"#, "1:11: a.b: expected a value, found '}'"),
    (#"{ a: [1, @] }"#, "1:10: a[1]: expected a value, found '@'"),
    (#"{ a: [yes] }"#, "1:7: a[0]: unexpected word 'yes' (strings need quotes)"),
    (#"{ layers: [{ id: "a }] }"#, "1:18: layers[0].id: unterminated string"),
    ("{ a: ['x\n'] }", "1:9: a[0]: line break inside a string (escape it with '\\')"),
    (#"{ a: { b: "\1" } }"#, "1:13: a.b: octal escapes are not allowed"),
    (#"{ a: { b: "\u00G0" } }"#, "1:16: a.b: expected 4 hex digits (0-9, a-f) in escape"),
    (#"{ a: { b: 0x } }"#, "1:13: a.b: expected hex digits (0-9, a-f) after '0x'"),
    (#"{ a: { b: 012 } }"#, "1:14: a.b: leading zeros are not allowed in numbers"),
    (#"{ a: { b: -Infinit } }"#, "1:19: a.b: expected a number, found 'Infinit'"),
    (#"{ a: [1e] }"#, "1:9: a[0]: expected digits in exponent"),
    (#"{ a: [-.] }"#, "1:9: a[0]: expected digits in number"),
    (#"{ a: [12px] }"#, "1:9: a[0]: unexpected 'p' after number"),
    (#"{ a: { \x41: 1 } }"#, "1:9: a: only \\u escapes are allowed in identifiers"),
    // At the top level: no path, as for the template's other top-level problems.
    (#"{ a: 1 } x"#, "1:10: unexpected 'x' after the end of the document"),
    (#"{ a: 1 b: 2 }"#, "1:8: expected ',' or '}' in object, found 'b'"),
    (#"[1 2]"#, "1:4: expected ',' or ']' in array, found '2'"),
  ])
  func everySyntaxErrorNamesItsPath(text: String, expected: String) {
    expectEqual(JSON5ParseMessages.message(text), expected)
  }

  @Test func tooDeepNamesTheContainerThatIsTooDeep() {
    let text = "{ a: " + String(repeating: "[", count: 600)
    let message = JSON5ParseMessages.message(text)
    #expect(message.hasPrefix("1:517: a[0][0][0]"), "\(message.prefix(80))")
    #expect(message.hasSuffix(": nesting deeper than 512 levels"), "\(message.suffix(80))")
  }

  /// A template, a params file and a batch manifest report the path with the file.
  @Test func aTemplatesSyntaxErrorNamesFileLineColumnAndPath() {
    let text = "{flick:1,canvas:{width:16,height:16,fps:10,duration:1},\nlayers:[{id:\"a\",size:[10 10]}]}"
    do {
      _ = try Template.decode(text, file: "s1.json5")
      Issue.record("parsed")
    } catch {
      expectEqual(error.description, "s1.json5:2:26: layers[0].size: expected ',' or ']' in array, found '1'")
    }
    var values = ParameterValues()
    do {
      try values.load(text: "{ list: [1, 2\n 3] }", file: "p.json5")
      Issue.record("parsed")
    } catch {
      expectEqual(error.description, "p.json5:2:2: list: expected ',' or ']' in array, found '3'")
    }
  }
}
