import FlickVideo
import Foundation

/// What merges and shards killed outright left behind, removed by the next merge.
extension BatchMerger {
  /// Removes what merges killed outright (SIGKILL, a lost node) left behind: work folders
  /// `OUTPUT/.flick/merge-PID-ID` and temporaries `.NAME.PID.merge` beside this plan's merged
  /// outputs (and their `.removing` leftovers), and beside them and in the chunk folders every
  /// temporary a render leaves (``FlickVideo/Cleanup/removeStale(in:)``), among them the files of the encoders that wrote
  /// a `.NAME.PID.merge` (its frame spool `..NAME.PID.merge.PID.frames`, as large as the clip
  /// uncompressed), whose PID is no longer a running process. Those of running processes (this
  /// one, another merge beside it) are left alone.
  ///
  /// - Returns: The paths removed.
  @discardableResult
  package func removeStale() -> [String] {
    var removed: [String] = []
    func sweep(_ folder: String, owner: (String) -> Int32?) {
      guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
      for name in names {
        guard let pid = owner(name), Cleanup.ownerHasExited(pid) else { continue }
        let path = folder + "/" + name
        // A link goes itself, never what it points to.
        var info = stat()
        guard lstat(path, &info) == 0 else { continue }
        let gone =
          (info.st_mode & S_IFMT) == S_IFDIR
          ? (try? FileManager.default.removeItem(atPath: path)) != nil : unlink(path) == 0
        if gone { removed.append(path) }
      }
    }
    sweep(plan.manifest.outputRoot + "/.flick") { Self.workFolderOwner($0) }
    var folders: Set<String> = []
    for merge in plan.merges {
      for target in merge.targets {
        folders.insert(URL(fileURLWithPath: Stamp.folder(of: target)).deletingLastPathComponent().path)
      }
    }
    for folder in folders.sorted() {
      sweep(folder) { Self.temporaryOwner($0) }
      removed += Cleanup.removeStale(in: folder)
    }
    // The chunk folders (`OUTPUT/.flick/chunks/…`): what shards killed outright left there. A
    // merge runs once every shard has ended, so the whole folder is swept, not only the
    // temporaries of one chunk's outputs as a run sweeps.
    var chunkFolders: Set<String> = []
    for merge in plan.merges {
      for chunk in merge.chunks {
        for target in chunk.targets {
          chunkFolders.insert(URL(fileURLWithPath: Stamp.folder(of: target)).deletingLastPathComponent().path)
        }
      }
    }
    for folder in chunkFolders.subtracting(folders).sorted() { removed += Cleanup.removeStale(in: folder) }
    return removed
  }

  /// The PID in a work folder name `merge-PID-ID` (or `merge-PID-ID.removing`), else nil.
  static func workFolderOwner(_ name: String) -> Int32? {
    guard name.hasPrefix("merge-") else { return nil }
    let fields = name.dropFirst("merge-".count).split(separator: "-", maxSplits: 1)
    guard fields.count == 2, let pid = Int32(fields[0]), pid > 0 else { return nil }
    return pid
  }

  /// The PID in a merge temporary's name `.NAME.PID.merge` (or `.NAME.PID.merge.removing`), else nil.
  static func temporaryOwner(_ name: String) -> Int32? {
    var stem = Substring(name)
    if stem.hasSuffix(".removing") { stem = stem.dropLast(".removing".count) }
    guard name.hasPrefix("."), stem.hasSuffix(".merge") else { return nil }
    stem = stem.dropLast(".merge".count)
    guard let dot = stem.lastIndex(of: "."), stem.index(after: stem.startIndex) < dot,
      let pid = Int32(stem[stem.index(after: dot)...]), pid > 0
    else { return nil }
    return pid
  }
}
