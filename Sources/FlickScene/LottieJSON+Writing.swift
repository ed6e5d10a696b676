import Foundation

extension LottieJSON {
  /// The document as compact JSON (no whitespace; strings escaped as rlottie's RapidJSON and
  /// Foundation both read them; numbers as written).
  func serialized() -> Data {
    var out: [UInt8] = []
    write(into: &out)
    return Data(out)
  }

  private func write(into out: inout [UInt8]) {
    switch self {
    case .object(let members):
      out.append(UInt8(ascii: "{"))
      for (i, member) in Self.inRlottieOrder(members).enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        Self.writeString(member.key, into: &out)
        out.append(UInt8(ascii: ":"))
        member.value.write(into: &out)
      }
      out.append(UInt8(ascii: "}"))
    case .array(let items):
      out.append(UInt8(ascii: "["))
      for (i, item) in items.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        item.write(into: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .string(let s): Self.writeString(s, into: &out)
    case .number(let n): out.append(contentsOf: n.utf8)
    case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
    case .null: out.append(contentsOf: "null".utf8)
    }
  }

  /// `members` in the order rlottie 0.1 needs: its parser reads each object once, front to back,
  /// and three keys change how the keys after them are read (lottieparser.cpp): a shape item's
  /// `ty` (everything before it is skipped, so a group, rectangle or fill whose `ty` comes last
  /// is not drawn), a layer's `ddd` (read before `ks`, absent means 3D: a transform read first
  /// takes its rotation from `rz` and ignores `r`), and a position's `s` (split position: `x` and
  /// `y` before it are skipped). Those keys go first, in that order; the others keep the file's
  /// order. JSON objects are unordered, so the document is the same one Flick checked.
  static func inRlottieOrder(_ members: [Member]) -> [Member] {
    func rank(_ member: Member) -> Int {
      switch member.key {
      case "ty": return 0
      case "ddd": return 1
      case "s": if case .bool = member.value { return 2 } else { return 3 }
      default: return 3
      }
    }
    var last = 0
    var ordered = true
    for member in members {
      let r = rank(member)
      if r < last {
        ordered = false
        break
      }
      last = r
    }
    if ordered { return members }
    return (0...3).flatMap { r in members.filter { rank($0) == r } }
  }

  private static func writeString(_ s: String, into out: inout [UInt8]) {
    let hex = Array("0123456789abcdef".utf8)
    out.append(UInt8(ascii: "\""))
    for byte in s.utf8 {
      switch byte {
      case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
      case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
      case 0..<0x20:
        out.append(contentsOf: Array("\\u00".utf8))
        out.append(hex[Int(byte >> 4)])
        out.append(hex[Int(byte & 0xF)])
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }
}
