import FlickExpectations
import FlickMotion
import Testing

/// ``PathText`` splits and compares paths as the kernel does, byte by byte, where Swift's
/// `String` goes by grapheme and canonical equivalence.
@Suite struct PathTextTests {
  @Test func componentsSplitAtEverySlashByte() {
    // "/" then U+0301 is one Character: String.split(separator: "/") keeps "../\u{301}x" whole.
    expectEqual("../\u{301}x/y".split(separator: "/").count, 2)
    expectEqual(PathText.components("../\u{301}x/y"), ["..", "\u{301}x", "y"])
    expectEqual(PathText.components("/a//b/"), ["a", "b"])
    expectEqual(PathText.components(""), [])
    #expect(PathText.hasSeparator("..\u{2F}\u{301}x"))
    #expect(!"../\u{301}x".dropFirst(2).contains("/"))
  }

  @Test func containmentIsByteForByte() {
    // Canonically equivalent, so equal as Swift Strings; two folders to the file system.
    #expect("/t/cafe\u{301}/x".hasPrefix("/t/café/"))
    #expect(!PathText.isInside("/t/cafe\u{301}/x", folder: "/t/café"))
    #expect(!PathText.isInside("/t/cafe\u{301}", folder: "/t/café"))
    #expect(PathText.isInside("/t/café/x", folder: "/t/café"))
    #expect(PathText.isInside("/t/café", folder: "/t/café/"))
    #expect(!PathText.isInside("/t/caféx", folder: "/t/café"))
    expectEqual(PathText.relative("/t/café/a/b", to: "/t/café"), "a/b")
    expectEqual(PathText.relative("/t/café", to: "/t/café"), "")
    expectEqual(PathText.relative("/x/y", to: "/"), "x/y")
    expectEqual(PathText.relative("/t/cafe\u{301}/a", to: "/t/café"), nil)
  }
}
