import FlickTestSupport
import Foundation
import Testing

/// A chunked clip planned, rendered and merged once (3 chunks of 4 frames at 32×24, GIF, MP4
/// and PNG outputs), copied for each case that damages its chunks; and small valid PNGs.
enum ChunkFixtures {
  typealias F = BatchFixtures

  /// The clip's size and frames.
  static let width = 32, height = 24, frames = 12

  /// A workspace whose chunks are rendered (`out/.flick/chunks/…`) but not merged, and the
  /// outputs a merge of the intact chunks makes (relative path → bytes).
  static let prepared: Result<Prepared, Failure> = Result { () throws -> Prepared in
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-chunks")
    try """
    { flick: 1, name: "long",
      canvas: { width: \(width), height: \(height), fps: 10, duration: 1.2, background: "#0F172A" },
      layers: [ { id: "card", size: [8, 8], position: [4, 12], backgroundColor: "#F97316" } ],
      timeline: [ { target: "card", property: "positionX", to: 28, at: 0, duration: 1.2, curve: "linear" } ] }
    """.write(to: dir.appendingPathComponent("long.json5"), atomically: true, encoding: .utf8)
    try """
    { flick: 1, output: "out", renders: [ { template: "long.json5", formats: ["gif", "mp4", "png"], chunk: 4 } ] }
    """.write(to: dir.appendingPathComponent("m.json5"), atomically: true, encoding: .utf8)
    for args in [["plan", "m.json5", "-o", "plan.json"], ["run", "plan.json", "-q"]] {
      let r = try F.flick(args, in: dir, environment: F.cleanEnvironment)
      guard r.status == 0 else { throw Failure(message: "flick \(args[0]) failed: \(r.stderr)") }
    }
    let reference = try copy(dir)
    defer { try? FileManager.default.removeItem(at: reference) }
    let merged = try F.flick(["merge", "plan.json", "-q"], in: reference, environment: F.cleanEnvironment)
    guard merged.status == 0 else { throw Failure(message: "flick merge failed: \(merged.stderr)") }
    return Prepared(folder: dir, merged: try outputs(reference))
  }.mapError { $0 as? Failure ?? Failure(message: "\($0)") }

  struct Prepared: Sendable {
    var folder: URL
    var merged: [String: Data]
  }

  struct Failure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
  }

  /// The folder of the chunks.
  static func chunks(_ workspace: URL) -> URL {
    workspace.appendingPathComponent("out/.flick/chunks/long/default/\(width)x\(height)")
  }

  /// The frame file of frame `index` in its chunk.
  static func frame(_ workspace: URL, _ index: Int) -> URL {
    chunks(workspace).appendingPathComponent("\(index / 4).frames/" + String(format: "%04d.png", index))
  }

  /// A fresh copy of `workspace` (a sibling folder).
  static func copy(_ workspace: URL) throws -> URL {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-chunks-case")
    try FileManager.default.removeItem(at: dir)
    try FileManager.default.copyItem(at: workspace, to: dir)
    return dir
  }

  /// The merged outputs under `workspace/out/long` (relative path → bytes; hidden files left out).
  static func outputs(_ workspace: URL) throws -> [String: Data] {
    let root = workspace.appendingPathComponent("out/long")
    var out: [String: Data] = [:]
    guard let names = FileManager.default.enumerator(atPath: root.path) else { return out }
    for case let name as String in names where !name.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
      var isFolder: ObjCBool = false
      let path = root.appendingPathComponent(name).path
      if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
        out[name] = try Data(contentsOf: URL(fileURLWithPath: path))
      }
    }
    return out
  }

  /// A valid PNG of `width × height` opaque pixels of one colour (8-bit RGBA, zlib stored blocks).
  static func png(width: Int, height: Int, rgba: [UInt8] = [255, 0, 255, 255]) -> Data {
    var raw: [UInt8] = []
    for _ in 0..<height {
      raw.append(0)
      for _ in 0..<width { raw += rgba }
    }
    var zlib: [UInt8] = [0x78, 0x01]
    var offset = 0
    repeat {
      let n = min(65535, raw.count - offset)
      let last: UInt8 = offset + n == raw.count ? 1 : 0
      zlib += [last, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
      zlib += raw[offset..<(offset + n)]
      offset += n
    } while offset < raw.count
    var a: UInt32 = 1, b: UInt32 = 0
    for byte in raw {
      a = (a + UInt32(byte)) % 65521
      b = (b + a) % 65521
    }
    zlib += bigEndian(b << 16 | a)
    var ihdr = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
    ihdr += [8, 6, 0, 0, 0]
    var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    file += chunk("IHDR", ihdr) + chunk("IDAT", zlib) + chunk("IEND", [])
    return Data(file)
  }

  /// `data` with its IHDR saying `width × height` (the chunk's CRC made right again).
  static func withHeader(_ data: Data, width: Int, height: Int) -> Data {
    var bytes = [UInt8](data)
    guard bytes.count >= 33 else { return data }
    bytes.replaceSubrange(16..<24, with: bigEndian(UInt32(width)) + bigEndian(UInt32(height)))
    bytes.replaceSubrange(29..<33, with: bigEndian(crc(Array(bytes[12..<29]))))
    return Data(bytes)
  }

  private static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + body
    return bigEndian(UInt32(body.count)) + typed + bigEndian(crc(typed))
  }

  private static func bigEndian(_ v: UInt32) -> [UInt8] {
    [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
  }

  private static func crc(_ bytes: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      c ^= UInt32(byte)
      for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    }
    return ~c
  }
}
