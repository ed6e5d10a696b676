@testable import FlickRaster
import FlickExpectations
@testable import FlickScene
import Foundation
import Testing

/// rlottie 0.1 reads each JSON object once, front to back, and three keys change how the keys
/// after them are read: a shape item's `ty`, a layer's `ddd`, a position's `s`. JSON objects are
/// unordered, so Flick writes those keys first in the copy rlottie is given, and a file draws
/// the same whatever order its keys are written in.
@Suite struct LottieKeyOrderTests {
  /// `value` as JSON with every object's keys in the order `order` gives (Flick's own writer
  /// would put them back in rlottie's order).
  static func written(_ value: LottieJSON, order: ([LottieJSON.Member]) -> [LottieJSON.Member]) -> String {
    switch value {
    case .object(let members):
      let parts = order(members).map { member in
        "\(Self.quoted(member.key)):" + written(member.value, order: order)
      }
      return "{" + parts.joined(separator: ",") + "}"
    case .array(let items): return "[" + items.map { written($0, order: order) }.joined(separator: ",") + "]"
    case .string(let s): return quoted(s)
    case .number(let n): return n
    case .bool(let b): return b ? "true" : "false"
    case .null: return "null"
    }
  }

  static func quoted(_ s: String) -> String {
    String(decoding: try! JSONSerialization.data(withJSONObject: [s], options: [.fragmentsAllowed]), as: UTF8.self)
      .dropFirst().dropLast().description
  }

  /// Flick's frame `n` of the Lottie file at `path`, as BGRA bytes.
  static func frame(_ path: String, _ n: Int) throws -> [UInt8] {
    let scene = try LottieFile.load(path: path).scene()
    return try FrameRenderer().render(scene.renderTree(at: scene.time(ofFrame: n))).pixels
  }

  static func write(_ text: String, _ name: String) throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("flick-key-order-\(getpid())-\(name)")
    try Data(text.utf8).write(to: url)
    return url.path
  }

  /// Every drawable fixture with each object's keys sorted (`ty` after `it`, `c`, `o`…) and
  /// reversed (`ty` last, `ddd` after `ks`): Flick draws each frame byte for byte as rlottie
  /// draws the file as written (where every `ty` comes first). Both came out blank before.
  @Test(arguments: LottieTests.drawable)
  func keyOrderDoesNotChangeTheFrames(name: String) throws {
    let tree = try LottieJSON.parse(Data(contentsOf: URL(fileURLWithPath: LottieTests.fixture(name))))
    let sorted = try Self.write(Self.written(tree) { $0.sorted { $0.key < $1.key } }, "\(name)-sorted.json")
    let reversed = try Self.write(Self.written(tree) { $0.reversed() }, "\(name)-reversed.json")
    defer {
      try? FileManager.default.removeItem(atPath: sorted)
      try? FileManager.default.removeItem(atPath: reversed)
    }
    for n in [0, 17] {
      let expected = try Self.frame(LottieTests.fixture(name), n)
      #expect(expected.contains { $0 != 0 }, "\(name) frame \(n) is blank")
      #expect(try Self.frame(sorted, n) == expected, "\(name) sorted, frame \(n)")
      #expect(try Self.frame(reversed, n) == expected, "\(name) reversed, frame \(n)")
    }
  }

  /// `ty-last.json` (made by hand): a group, its rectangle, fill and transform, each with `ty`
  /// last. rlottie reading it as written draws nothing; Flick draws the red 40 × 40 square.
  @Test func aShapeWhoseTypeComesLastIsDrawn() throws {
    let pixels = try Self.frame(LottieTests.fixture("ty-last"), 0)
    let opaqueRed: [UInt8] = [0, 0, 255, 255]  // premultiplied BGRA
    let red = stride(from: 0, to: pixels.count, by: 4).filter { (i: Int) -> Bool in
      pixels[i..<i + 4].elementsEqual(opaqueRed)
    }.count
    expectEqual(red, 40 * 40)
  }

  /// A position split into `x` and `y` whose `s` comes after them, and a layer whose `ddd: 0`
  /// comes after its rotated transform, draw as the same file with `s` and `ddd` first.
  @Test func splitPositionAndDddAfterTheTransform() throws {
    func file(_ layerKeys: String) -> String {
      #"{"v":"5.7.0","fr":10,"ip":0,"op":10,"w":100,"h":100,"layers":[{"# + layerKeys
        + #","ty":4,"ind":1,"ip":0,"op":10,"st":0,"shapes":[{"ty":"rc","d":1,"s":{"a":0,"k":[40,20]},"p":{"a":0,"k":[0,0]},"r":{"a":0,"k":0}},{"ty":"fl","c":{"a":0,"k":[0,0,1,1]},"o":{"a":0,"k":100}}]}]}"#
    }
    let transform =
      #""o":{"a":0,"k":100},"r":{"a":0,"k":45},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]}"#
    let first = try Self.write(
      file(#""ddd":0,"ks":{"# + transform + #","p":{"s":true,"x":{"a":0,"k":30},"y":{"a":0,"k":60}}}"#), "first.json")
    let last = try Self.write(
      file(#""ks":{"# + transform + #","p":{"x":{"a":0,"k":30},"y":{"a":0,"k":60},"s":true}},"ddd":0"#), "last.json")
    defer {
      try? FileManager.default.removeItem(atPath: first)
      try? FileManager.default.removeItem(atPath: last)
    }
    let expected = try Self.frame(first, 0)
    #expect(expected.contains { $0 != 0 })
    #expect(try Self.frame(last, 0) == expected)
  }
}
