import Foundation

/// Byte-for-byte equality of pixel buffers for the tests that compare whole frames. `==` on
/// `[UInt8]` in a debug build is the standard library's unspecialised generic loop (one witness
/// call per byte): comparing a template's frames that way cost DamageTemplateTests about a sixth
/// of its CPU. This is `memcmp`: the same answer, at memory speed.
package enum SameBytes {
  /// Whether `a` and `b` hold the same bytes (and as many of them): bytes, or pixels as words.
  package static func equal<Element: BitwiseCopyable>(_ a: [Element], _ b: [Element]) -> Bool {
    guard a.count == b.count else { return false }
    return a.withUnsafeBytes { x in
      b.withUnsafeBytes { y in
        guard let p = x.baseAddress, let q = y.baseAddress else { return true }  // both empty
        return memcmp(p, q, x.count) == 0
      }
    }
  }

  /// Whether `a` and `b` are as many buffers, each holding the same bytes as its counterpart.
  package static func equal(_ a: [[UInt8]], _ b: [[UInt8]]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
  }
}
