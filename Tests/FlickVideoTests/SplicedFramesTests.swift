import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

@testable import FlickVideo

/// Frames handed to ffmpeg's pipe by reference (`vmsplice`) must stay unchanged and allocated
/// until ffmpeg has read them: `SplicedFrames` keeps each array until the pipe's count of unread
/// bytes shows it has been read, and a pool that hands the array to the next frame then finds it
/// unshared. These tests read the pipe themselves, or run `cat` as the encoder.
@Suite struct SplicedFramesTests {
  /// A pipe of 1 MiB (as ffmpeg's input is); both ends are closed by the caller.
  static func pipe() throws -> (read: Int32, write: Int32) {
    var fds: [Int32] = [0, 0]
    try #require(Glibc.pipe(&fds) == 0)
    PipeWriter.enlarge(fds[1])
    return (fds[0], fds[1])
  }

  /// Reads exactly `count` bytes from `fd`.
  static func read(_ fd: Int32, _ count: Int) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    var done = 0
    while done < count {
      let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + done, count - done) }
      if n <= 0 { break }
      done += n
    }
    return Array(bytes.prefix(done))
  }

  static func frame(_ seed: UInt8, count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
  }

  /// Keeps `bytes` in `frames` and hands them to the pipe `w`, as a sink does.
  static func splice(_ bytes: [UInt8], into w: Int32, keepingIn frames: inout SplicedFrames) {
    frames.keep(bytes)
    #expect(bytes.withUnsafeBytes { PipeWriter.spliceAll(w, $0) } == nil)
  }

  /// Runs `body` with both ends of a fresh pipe and closes them afterwards.
  static func withPipe<T>(_ body: (_ read: Int32, _ write: Int32) throws -> T) throws -> T {
    let (r, w) = try pipe()
    defer {
      close(r)
      close(w)
    }
    return try body(r, w)
  }

  @Test func aFrameStaysKeptUntilItsLastByteIsRead() throws {
    try Self.withPipe { r, w in
      var frames = SplicedFrames()
      let first = Self.frame(1, count: 300_000)
      Self.splice(first, into: w, keepingIn: &frames)
      let released = frames.release(w)
      #expect(released != nil)
      expectEqual(frames.count, 1)
      let head = Self.read(r, 299_999)
      frames.release(w)
      expectEqual(frames.count, 1, "released before its last byte was read")
      let tail = Self.read(r, 1)
      frames.release(w)
      expectEqual(frames.count, 0)
      expectEqual(head + tail, first)
    }
  }

  /// What the pipe holds is the array's memory: were it let go of, the next allocation of its
  /// size (64 KiB comes from the heap, not a mapping of its own) would write over it.
  @Test func whatIsKeptIsWhatTheReaderReads() throws {
    try Self.withPipe { r, w in
      var frames = SplicedFrames()
      let expected = Self.frame(7, count: 65536)
      do {
        Self.splice(Self.frame(7, count: 65536), into: w, keepingIn: &frames)
      }
      // Allocations of the same size, written all over, while the frame waits in the pipe.
      let others = (0..<8).map { Self.frame(200 + UInt8($0), count: 65536) }
      expectEqual(others.count, 8)
      expectEqual(Self.read(r, 65536), expected)
    }
  }

  @Test func theWriterWaitsForEveryFrameButTheNewest() throws {
    try Self.withPipe { r, w in
      var frames = SplicedFrames()
      let sizes = [100_000, 200_000, 150_000]
      for (n, size) in sizes.enumerated() {
        Self.splice(Self.frame(UInt8(n), count: size), into: w, keepingIn: &frames)
      }
      let reader = Thread {
        usleep(50_000)
        _ = Self.read(r, 300_000)
      }
      reader.start()
      let failure = frames.awaitAllButLast(w, stallTimeout: 10) { 0 }
      #expect(failure == nil)
      expectEqual(frames.count, 1)
    }
  }

  @Test func aReaderThatClosedThePipeIsAnErrorNotAWait() throws {
    let (r, w) = try Self.pipe()
    defer { close(w) }
    _ = PipeWriter.ignoreSIGPIPE
    var frames = SplicedFrames()
    for n in 0..<2 {
      Self.splice(Self.frame(UInt8(n), count: 100_000), into: w, keepingIn: &frames)
    }
    close(r)
    let failure = frames.awaitAllButLast(w, stallTimeout: nil) { 0 }
    #expect(failure != nil, "\(String(describing: failure))")
    expectNotEqual(failure, .stalled, "\(String(describing: failure))")
    expectEqual(frames.count, 2, "kept until the reader has gone for certain")
  }

  @Test func aReaderThatReadsNothingStalls() async throws {
    // A second of waiting for a reader that never reads: off the test runner's threads (OffPool).
    let stalled = try await OffPool.run {
      try Self.withPipe { r, w -> Bool in
        var frames = SplicedFrames()
        for n in 0..<2 {
          Self.splice(Self.frame(UInt8(n), count: 100_000), into: w, keepingIn: &frames)
        }
        return frames.awaitAllButLast(w, stallTimeout: 1) { 0 } == .stalled
      }
    }
    #expect(stalled)
  }

  /// The pipeline's way: each frame is drawn into a buffer from a pool, handed to the encoder,
  /// and its buffer goes back to the pool when the next frame has been handed over. What the
  /// encoder (`cat`, slow to start) receives is every frame as it was drawn, no buffer is
  /// copied on reuse, and at most the newest frame waits in the pipe.
  @Test func framesDrawnIntoReusedBuffersArriveIntact() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("frames.raw").path
    let process = try FFmpegProcess(
      executable: "/bin/sh", arguments: ["-c", "sleep 0.2; cat > '\(out)'"], files: [], output: out)
    let size = 777_600  // a 960×540 frame's yuv420p planes
    var pool: [[UInt8]] = []
    var held: [UInt8]?
    var expected: [UInt8] = []
    var copies = 0
    for n in 0..<24 {
      var buffer = pool.popLast() ?? [UInt8](repeating: 0, count: size)
      let before = buffer.withUnsafeBytes { $0.baseAddress }
      buffer.withUnsafeMutableBytes { bytes in
        for i in stride(from: 0, to: size, by: 4096) { bytes[i] = UInt8(truncatingIfNeeded: n &+ i / 4096) }
      }
      if buffer.withUnsafeBytes({ $0.baseAddress }) != before { copies += 1 }
      expected += buffer
      #expect(process.write(frame: buffer, stallTimeout: 30) == nil)
      expectLessOrEqual(process.framesInPipe, 1)
      if let previous = held.take() { pool.append(previous) }
      held = buffer
    }
    held = nil
    #expect(process.finish(stallTimeout: 30) == nil)
    expectEqual(process.framesInPipe, 0)
    expectEqual(copies, 0, "a reused buffer was still shared when it was drawn into")
    let written = try Data(contentsOf: URL(fileURLWithPath: out))
    expectEqual(written.count, expected.count)
    #expect(SameBytes.equal([UInt8](written), expected))
  }
}
