import Foundation
import Synchronization

/// Runs a subprocess for Flick's own end-to-end tests, reading stdout and stderr concurrently so
/// neither pipe can fill up and block the child. Not a product: only test targets depend on it.
package enum ProcessRunner {
  /// What a finished process printed and how it exited.
  package struct Output: Sendable {
    /// The exit status (or the signal number when killed).
    package var status: Int32
    /// Everything written to stdout.
    package var stdout: Data
    /// Everything written to stderr, as UTF-8 text.
    package var stderr: String
    /// stdout as UTF-8 text.
    package var text: String { String(decoding: stdout, as: UTF8.self) }
  }

  /// Runs `executable` with `arguments` to completion; stdin is the null device.
  ///
  /// - Parameters:
  ///   - environment: The whole environment, or nil to inherit this process's.
  ///   - directory: The working directory, or nil for the current one.
  package static func run(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil
  ) throws -> Output {
    let started = try start(executable, arguments, environment: environment, directory: directory)
    let errors = PipeDrain(started.stderr)
    let outData = started.stdout.readDataToEndOfFile()
    let errData = errors.wait()
    started.process.waitUntilExit()
    return Output(
      status: started.process.terminationStatus, stdout: outData, stderr: String(decoding: errData, as: UTF8.self))
  }

  /// A process started by ``start(_:_:environment:directory:)`` and the read ends of its pipes.
  package struct Started {
    package var process: Process
    /// Its stdout.
    package var stdout: FileHandle
    /// Its stderr.
    package var stderr: FileHandle
  }

  /// Starts `executable` with `arguments`, stdin the null device and stdout and stderr piped, for
  /// a test that reads while it runs (a server's first line) and stops it itself. The caller
  /// drains both pipes (``PipeDrain``) or the child may block on a full one.
  package static func start(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil
  ) throws -> Started {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: executable)
    p.arguments = arguments
    if let environment { p.environment = environment }
    if let directory { p.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let out = Pipe()
    let err = Pipe()
    p.standardOutput = out
    p.standardError = err
    p.standardInput = FileHandle.nullDevice
    try p.runUnblocked()
    return Started(process: p, stdout: out.fileHandleForReading, stderr: err.fileHandleForReading)
  }

  /// The `flick` binary the tests run: `FLICK_BIN`; else the one built beside the running test
  /// bundle, whatever the build's scratch path (`make test` builds into `.build/tests`,
  /// scripts/build-tests); else `.build/debug/flick` under `root`.
  package static func flick(root: URL) -> String {
    if let explicit = ProcessInfo.processInfo.environment["FLICK_BIN"] { return explicit }
    if let bundle = Bundle.main.executablePath {
      let beside = URL(fileURLWithPath: bundle).deletingLastPathComponent().appendingPathComponent("flick").path
      if FileManager.default.isExecutableFile(atPath: beside) { return beside }
    }
    return root.appendingPathComponent(".build/debug/flick").path
  }

  /// A fresh temporary folder named `<prefix>-<UUID>`. The caller may remove it when done;
  /// whatever is left of it is removed when the test process exits (``removeAtExit(_:)``).
  package static func temporaryDirectory(prefix: String) throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    removeAtExit(dir.path)
    return dir
  }

  /// Removes the file or folder at `path` (if it is still there) when the test process exits, so
  /// a test that hands a temporary file to its caller, or fails before its own clean-up, leaves
  /// nothing in the temporary folder.
  package static func removeAtExit(_ path: String) {
    let first = leftovers.withLock { paths in
      defer { paths.append(path) }
      return paths.isEmpty
    }
    guard first else { return }
    atexit {
      for path in ProcessRunner.leftovers.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
    }
  }

  /// What ``removeAtExit(_:)`` removes, in the order given.
  private static let leftovers = Mutex<[String]>([])
}
