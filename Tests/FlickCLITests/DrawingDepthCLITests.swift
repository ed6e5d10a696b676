import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// Replicator copies nest: copy `k` of a replicator of `n` instances is drawn inside `k` chained
/// transforms, so two nested replicators of 99 put a layer 201 levels deep, and the painter's
/// recursion overflowed the stack (signal 11 in `still`, `render` and the studio). Templates
/// count those levels at load against `Layer.maximumDrawingDepth` (128), which every drawing
/// thread's stack holds with room to spare.
@Suite struct DrawingDepthCLITests {
  /// Two replicators nested in each other, with `outer` and `inner` instances, around `leaf`
  /// (JSON5 of one layer object), on a 64×64 canvas.
  static func nested(outer: Int, inner: Int, leaf: String) -> String {
    """
    {flick:1, canvas:{width:64,height:64,fps:10,duration:0.3}, layers:[{id:"R1", size:[4,4], position:[2,2],
    instanceCount:\(outer), instanceTransform:{translation:[0.01,0.01]}, sublayers:[{id:"R0", size:[4,4],
    position:[2,2], instanceCount:\(inner), instanceTransform:{translation:[0.01,0.01]}, sublayers:[\(leaf)]}]}] }
    """
  }

  static func write(_ text: String, in dir: URL) throws -> String {
    let path = dir.appendingPathComponent("t.json5").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test func nestedReplicatorsTooDeepAreALocatedErrorNotACrash() throws {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-depth")
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = try Self.write(
      Self.nested(outer: 99, inner: 99, leaf: "{id:\"leaf\", size:[1,1], position:[1,1], backgroundColor:\"#0f0\"}"),
      in: dir)
    let png = dir.appendingPathComponent("r.png").path
    let frames = dir.appendingPathComponent("frames").path + "/"
    for args in [["still", file, "--time", "0", "-o", png], ["render", file, "-o", frames, "--jobs", "2", "-q"]] {
      let r = try ProcessRunner.run(CLITests.flick, args)
      expectEqual(r.status, 2, "\(args[0]): \(r.stderr)")
      #expect(r.stderr.contains("t.json5:3:"), "located: \(r.stderr)")
      #expect(r.stderr.contains("layers[0].sublayers[0].sublayers[0]"), "JSON path: \(r.stderr)")
      #expect(r.stderr.contains("201 levels deep, more than the cap of 128"), "\(r.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: png))
    #expect(((try? FileManager.default.contentsOfDirectory(atPath: frames)) ?? []).isEmpty)
  }

  /// The leaf of ``aTreeAtTheCapDrawsOnTheMainThreadAndOnRenderWorkers()``: with `R1` of 100
  /// and `R0` of 24 instances, "a" is level 127 and "d" level 128, the painter's heavier paths.
  static let heavyLeaf = """
    {id:"a", size:[2,2], position:[1,1], opacity:0.9, shadowOpacity:0.5, mask:{id:"m", size:[2,2],
    position:[1,1], backgroundColor:"#fff"}, transform:{rotationY:"20deg", perspective:300},
    sublayers:[{id:"d", size:[1,1], position:[1,1], cornerRadius:0.4, backgroundColor:"#0f0", shadowOpacity:0.5}]}
    """

  /// Drawing takes up to 7 MiB of stack at the cap, and the main thread has what `ulimit -s`
  /// gives: `still` drew on it and died of SIGSEGV under `ulimit -s 1024`. Every command that
  /// draws does so on threads of 8 MiB, so a tree at the cap draws under a 1 MiB limit.
  @Test func everyCommandDrawsATreeAtTheCapUnderASmallStackLimit() throws {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-depth")
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = try Self.write(Self.nested(outer: 100, inner: 24, leaf: Self.heavyLeaf), in: dir)
    let path = dir.path
    let commands = [
      ["still", file, "--time", "0.1", "-o", path + "/still.png"],
      ["snapshot", file, "--at", "0,end", "--out", path + "/goldens"],
      ["verify", file, "--against", path + "/goldens", "--report", path + "/report"],
      ["render", file, "-o", path + "/frames/", "--jobs", "2", "-q"],
      ["info", file],
    ]
    for args in commands {
      let r = try ProcessRunner.run(
        "/bin/sh", ["-c", "ulimit -s 1024 && exec \"$0\" \"$@\"", CLITests.flick] + args)
      expectEqual(r.status, 0, "\(args[0]) under ulimit -s 1024: \(r.stderr)")
    }
    #expect(FileManager.default.fileExists(atPath: path + "/still.png"))
  }

  /// A tree exactly at the cap draws: in a still (the main thread) and on two render workers,
  /// its deepest layers taking the painter's heavier paths (a group for opacity, a mask, a
  /// layer-shaped shadow, a 3D plane).
  @Test func aTreeAtTheCapDrawsOnTheMainThreadAndOnRenderWorkers() throws {
    let dir = try ProcessRunner.temporaryDirectory(prefix: "flick-depth")
    defer { try? FileManager.default.removeItem(at: dir) }
    // R1 is level 1, R0 level 102 (1 + 1 + 100), "a" level 127 (102 + 1 + 24), "d" level 128.
    let leaf = Self.heavyLeaf
    let file = try Self.write(Self.nested(outer: 100, inner: 24, leaf: leaf), in: dir)
    let png = dir.appendingPathComponent("r.png").path
    let still = try ProcessRunner.run(CLITests.flick, ["still", file, "--time", "0.1", "-o", png])
    expectEqual(still.status, 0, "\(still.stderr)")
    let frames = dir.appendingPathComponent("frames").path + "/"
    let render = try ProcessRunner.run(CLITests.flick, ["render", file, "-o", frames, "--jobs", "2", "-q"])
    expectEqual(render.status, 0, "\(render.stderr)")
    #expect(((try? FileManager.default.contentsOfDirectory(atPath: frames)) ?? []).contains("0002.png"))
    // One level more is refused.
    let deeper = try Self.write(Self.nested(outer: 100, inner: 25, leaf: leaf), in: dir)
    let r = try ProcessRunner.run(CLITests.flick, ["still", deeper, "--time", "0", "-o", png])
    expectEqual(r.status, 2, "\(r.stderr)")
    #expect(r.stderr.contains("129 levels deep"), "\(r.stderr)")
  }
}
