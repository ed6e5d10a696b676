import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// Where an output may go: never over a device, FIFO or socket (a rename would put an ordinary
/// file where `/dev/null` was), never twice to one entry through a linked folder, never over a
/// file the render reads. Each is refused up front with exit 2, and nothing is touched.
@Suite struct OutputPlaceTests {
  static let flick = CLITests.flick

  static func run(_ args: [String], in dir: String) throws -> ProcessRunner.Output {
    try ProcessRunner.run(flick, args, directory: dir)
  }

  static func kind(_ path: String) -> mode_t {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
  }

  @Test func aDeviceFIFOOrSocketIsNeverReplaced() throws {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-place").path
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // A character device of our own (the null device's numbers; the tests run as root where
    // mknod is allowed), a FIFO and a socket.
    let device = dir + "/null.mp4"
    let madeDevice = mknod(device, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0  // makedev(1, 3)
    #expect(mkfifo(dir + "/fifo.mp4", 0o644) == 0)
    #expect(mkfifo(dir + "/fifo.png", 0o644) == 0)
    let socketPath = dir + "/sock.gif"
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (i, byte) in socketPath.utf8.enumerated() where i < raw.count - 1 { raw[i] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    defer { close(fd) }
    #expect(bound == 0)
    var cases: [([String], String)] = [
      (["render", CLITests.hello, "-o", "fifo.mp4", "--frames", "0..1"], "fifo.mp4"),
      (["render", CLITests.hello, "-o", "sock.gif", "--frames", "0..1"], "sock.gif"),
      (["still", CLITests.hello, "-o", "fifo.png"], "fifo.png"),
    ]
    if madeDevice { cases.append((["render", CLITests.hello, "-o", "null.mp4", "--frames", "0..1"], "null.mp4")) }
    for (args, name) in cases {
      let before = Self.kind(dir + "/" + name)
      let r = try Self.run(args, in: dir)
      expectEqual(r.status, 2, "\(args): \(r.stderr)")
      #expect(r.stderr.contains("not a regular file"), "\(args): \(r.stderr)")
      expectEqual(Self.kind(dir + "/" + name), before, "\(name) is still what it was")
    }
    // Nothing but what the test made.
    let left = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
    expectEqual(
      left, (madeDevice ? ["fifo.mp4", "fifo.png", "null.mp4", "sock.gif"] : ["fifo.mp4", "fifo.png", "sock.gif"]))
  }

  @Test func oneEntryTwiceThroughALinkedFolderIsRefused() throws {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-place").path
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.createSymbolicLink(atPath: dir + "/self", withDestinationPath: ".")
    try Data("OLD".utf8).write(to: URL(fileURLWithPath: dir + "/a.mp4"))
    let r = try Self.run(["render", CLITests.hello, "-o", "a.mp4", "-o", "self/a.mp4", "--frames", "0..1"], in: dir)
    expectEqual(r.status, 2, "\(r.stderr)")
    #expect(r.stderr.contains("is given twice as an output"), "\(r.stderr)")
    try expectEqual(String(contentsOfFile: dir + "/a.mp4", encoding: .utf8), "OLD")
  }

  @Test func anOutputNeverReplacesItsOwnInput() throws {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-place").path
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let template = """
      { flick: 1, canvas: { width: 32, height: 16, fps: 10, duration: 0.2 },
        layers: [ { id: "p", contents: "images/0001.png", size: [8, 8], position: [8, 8] } ] }
      """
    try FileManager.default.createDirectory(atPath: dir + "/images", withIntermediateDirectories: true)
    try template.write(toFile: dir + "/t.json5", atomically: true, encoding: .utf8)
    let made = try Self.run(["still", CLITests.hello, "--scale", "0.05", "-o", "images/0001.png"], in: dir)
    expectEqual(made.status, 0, "\(made.stderr)")
    let picture = try Data(contentsOf: URL(fileURLWithPath: dir + "/images/0001.png"))
    try "{ }".write(toFile: dir + "/p.json5", atomically: true, encoding: .utf8)
    let cases: [([String], String)] = [
      (["render", "t.json5", "-o", "t.json5", "--format", "mp4"], "t.json5"),
      (["render", "t.json5", "-o", "./images/0001.png", "--format", "webp"], "images/0001.png"),
      (["render", "t.json5", "--params", "p.json5", "-o", "p.json5", "--format", "gif"], "p.json5"),
      (["render", "t.json5", "-o", "images/"], "images/0001.png"),
      (["still", "t.json5", "-o", "images/../images/0001.png"], "images/0001.png"),
    ]
    for (args, victim) in cases {
      let r = try Self.run(args, in: dir)
      expectEqual(r.status, 2, "\(args): \(r.stderr)")
      #expect(r.stderr.contains("which the render reads"), "\(args): \(r.stderr)")
      _ = victim
    }
    try expectEqual(String(contentsOfFile: dir + "/t.json5", encoding: .utf8), template)
    try expectEqual(String(contentsOfFile: dir + "/p.json5", encoding: .utf8), "{ }")
    try expectEqual(Data(contentsOf: URL(fileURLWithPath: dir + "/images/0001.png")), picture)
    try expectEqual(FileManager.default.contentsOfDirectory(atPath: dir + "/images"), ["0001.png"])
  }
}
