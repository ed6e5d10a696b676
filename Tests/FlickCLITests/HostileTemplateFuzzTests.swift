import FlickTestSupport
import Foundation
import Testing

/// Hostile templates from ``HostileTemplate`` (seeded, structure-aware) through the real `flick`
/// binary: every case must end with exit 0, 2 or 3 (never a crash or a signal) within the time
/// bound, under a memory bound (`ulimit -v`), leave no temporary file, print no raw terminal
/// controls, and, when it is refused, say where.
///
/// `make test` runs `FLICK_FUZZ_CASES` cases (default 150); `make fuzz` runs 3,000.
/// `FLICK_FUZZ_SEED` picks the first seed; a failure names its seed, and
/// `FLICK_FUZZ_SEED=<seed> FLICK_FUZZ_CASES=1` replays it (`FLICK_FUZZ_KEEP=DIR` keeps the case
/// folders there).
@Suite struct HostileTemplateFuzzTests {
  static let environment = ProcessInfo.processInfo.environment
  static let cases = Int(environment["FLICK_FUZZ_CASES"] ?? "") ?? 150
  static let firstSeed = UInt64(environment["FLICK_FUZZ_SEED"] ?? "") ?? 0x5EED_F11C
  /// Generous: a case that takes this long is a hang, not a slow case.
  static let timeLimit = 120.0
  /// Virtual memory for one case, in KiB (4 GiB).
  static let memoryLimitKiB = 4 << 20

  struct Outcome {
    var status: Int32
    var signalled: Bool
    var timedOut: Bool
    var stderr: String
  }

  /// Runs `flick args` in `folder` under the memory limit, killing it after ``timeLimit``.
  static func run(_ args: [String], in folder: String) throws -> Outcome {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/sh")
    p.arguments = ["-c", "ulimit -v \(memoryLimitKiB); exec \"$@\"", "sh", CLITests.flick] + args
    p.currentDirectoryURL = URL(fileURLWithPath: folder)
    let err = Pipe()
    p.standardError = err
    p.standardOutput = FileHandle.nullDevice
    p.standardInput = FileHandle.nullDevice
    try p.run()
    let done = DispatchSemaphore(value: 0)
    let box = Box()
    DispatchQueue.global().async {
      box.data = err.fileHandleForReading.readDataToEndOfFile()
      done.signal()
    }
    let timedOut = done.wait(timeout: .now() + timeLimit) == .timedOut
    if timedOut {
      kill(p.processIdentifier, SIGKILL)
      done.wait()
    }
    p.waitUntilExit()
    return Outcome(
      status: p.terminationStatus, signalled: p.terminationReason == .uncaughtSignal, timedOut: timedOut,
      stderr: String(decoding: box.data, as: UTF8.self))
  }

  private final class Box: @unchecked Sendable { var data = Data() }

  /// The problems with one case, empty when it behaved.
  static func check(seed: UInt64, root: URL) throws -> [String] {
    var g = SeededGenerator(seed: seed)
    let t = HostileTemplate.make(&g)
    let folder = root.appendingPathComponent("case-\(seed)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { if environment["FLICK_FUZZ_KEEP"] == nil { try? FileManager.default.removeItem(at: folder) } }
    try t.text.write(to: folder.appendingPathComponent("t.json5"), atomically: false, encoding: .utf8)
    for (name, bytes) in t.assets { try Data(bytes).write(to: folder.appendingPathComponent(name)) }
    let caps = ["--max-memory", "1G", "--max-pixels", "4000000"]
    let args: [String]
    switch seed % 5 {
    case 0: args = ["render", "t.json5", "-o", "out.mp4", "-o", "frames/", "-q", "--pad", "--jobs", "1"] + caps
    case 1: args = ["info", "t.json5"]
    default: args = ["still", "t.json5", "-o", "out.png", "--at", "50%"] + caps
    }
    let start = Date()
    let r = try run(args, in: folder.path)
    if environment["FLICK_FUZZ_VERBOSE"] != nil {
      let first = r.stderr.split(separator: "\n").first.map { String($0.prefix(150)) } ?? ""
      print(String(format: "fuzz seed %llu %@ %.2f s exit %d: %@", seed, args[0], Date().timeIntervalSince(start), r.status, first))
    }
    var problems: [String] = []
    let head = String(t.text.prefix(300))
    func fail(_ what: String) {
      problems.append("seed \(seed) (\(t.theme), flick \(args.joined(separator: " "))): \(what)\n  stderr: \(r.stderr.prefix(400))\n  template: \(head)")
    }
    if r.timedOut { fail("no answer within \(Int(timeLimit)) s") }
    if r.signalled || ![0, 2, 3].contains(r.status) { fail("ended with \(r.signalled ? "signal" : "status") \(r.status)") }
    let leftovers = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
      $0.hasPrefix(".") || $0.hasSuffix(".tmp") || $0.hasSuffix(".partial")
    }
    if !leftovers.isEmpty { fail("left \(leftovers)") }
    if r.status == 2 {
      let located = r.stderr.contains("t.json5:") || r.stderr.contains("t.json5: ")
      let capOrSize = r.stderr.contains("cap of") || r.stderr.contains("cannot encode")
      if !located && !capOrSize { fail("a refusal that does not say where") }
    }
    if r.stderr.unicodeScalars.contains(where: { $0 == "\u{1B}" || $0 == "\r" || $0 == "\u{202E}" || $0 == "\u{85}" }) {
      fail("raw terminal controls in the message")
    }
    if r.stderr.split(separator: "\n").contains(where: { $0.hasPrefix("::") }) { fail("a line that forges a CI annotation") }
    return problems
  }

  @Test func hostileTemplatesEndCleanlyWithExit0Or2Or3() throws {
    let root = try Self.environment["FLICK_FUZZ_KEEP"].map { URL(fileURLWithPath: $0) }
      ?? ProcessRunner.temporaryDirectory(prefix: "flick-fuzz")
    defer { if Self.environment["FLICK_FUZZ_KEEP"] == nil { try? FileManager.default.removeItem(at: root) } }
    let problems = Locked<[String]>([])
    // The cases mostly wait for their process: run a few more at once than there are cores.
    let slots = DispatchSemaphore(value: ProcessInfo.processInfo.activeProcessorCount + 1)
    let group = DispatchGroup()
    for i in 0..<Self.cases {
      let seed = Self.firstSeed &+ UInt64(i)
      slots.wait()
      DispatchQueue.global().async(group: group) {
        defer { slots.signal() }
        do {
          let found = try Self.check(seed: seed, root: root)
          if !found.isEmpty { problems.withValue { $0 += found } }
        } catch {
          problems.withValue { $0.append("seed \(seed): \(error)") }
        }
      }
    }
    group.wait()
    let all = problems.withValue { $0 }
    #expect(all.isEmpty, "\(all.count) of \(Self.cases) cases misbehaved:\n\(all.prefix(10).joined(separator: "\n"))")
  }

  @Test func theGeneratorIsDeterministicAndVaried() {
    var a = SeededGenerator(seed: 7)
    var b = SeededGenerator(seed: 7)
    #expect(HostileTemplate.make(&a).text == HostileTemplate.make(&b).text)
    var g = SeededGenerator(seed: 1)
    let texts = (0..<50).map { _ in HostileTemplate.make(&g).text }
    #expect(Set(texts).count == 50)
    #expect(texts.contains { $0.contains("$(") } && texts.contains { $0.contains("sublayers") })
  }
}

/// A value behind a lock, for the concurrent cases.
final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value
  init(_ value: Value) { self.value = value }
  func withValue<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&value) } }
}
