import Foundation

/// Makes a stand-in program a test just wrote (a fake `ffmpeg`, `gifsicle`, `xdg-open`)
/// executable in a way `exec` never finds busy.
///
/// A file this multi-threaded test process wrote may still be open for writing in a child that
/// another test forks at that moment (the descriptor lives in the child until it execs, longer
/// when the child is slow to), and `exec` of the file then fails with `ETXTBSY` ("Text file
/// busy"): `flick` said "cannot start ffmpeg: …: Text file busy" in a full run under load.
/// ``settle(_:)`` replaces the file by a copy that `/bin/cp`, a process of its own, wrote: no
/// thread of this process ever holds the new file open for writing.
package enum ExecutableScript {
  /// Replaces the file at `path` by an executable (0755) copy of it that no thread of this
  /// process has open, by a rename over it.
  ///
  /// - Throws: When the copy or the rename fails.
  package static func settle(_ path: String) throws {
    let copy = path + ".settling-\(UUID().uuidString)"
    let r = try ProcessRunner.run("/bin/cp", [path, copy])
    guard r.status == 0 else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: copy, "cp": r.stderr])
    }
    guard chmod(copy, 0o755) == 0, rename(copy, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(copy)
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, "reason": reason])
    }
  }
}
