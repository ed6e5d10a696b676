import FlickMotion
import FlickTemplates
import Foundation

/// `plan.json`: the fixed, ordered list of jobs a manifest expands to, written by `flick plan`
/// and read by `flick run` and `flick merge` on every worker.
///
/// Each job has a content-hash ``Job/id`` over everything that decides its bytes (see
/// ``JobIdentity``). Jobs are numbered from 0; shard `i` of `n` (1-based) runs the jobs
/// ``ShardBalance`` gives it (``jobs(shard:of:)``). A clip longer than its render's `chunk` becomes one
/// job per chunk plus a ``Merge`` that `flick merge` performs.
package struct Plan: Codable, Sendable, Equatable {
  /// The plan format version this build reads and writes.
  package static let formatVersion = 1

  /// One output file or PNG-sequence folder, relative to the output root.
  package struct Output: Codable, Sendable, Equatable {
    package var path: String
    /// `mp4`, `gif`, `png` (a folder), …
    package var format: String
  }

  /// One unit of work for a shard.
  package struct Job: Codable, Sendable, Equatable {
    /// Position in ``Plan/jobs`` (0-based).
    package var index: Int
    /// The content hash (64 hex digits).
    package var id: String
    /// `render` (final outputs) or `chunk` (part of a clip, for a merge).
    package var kind: String
    /// `name/variant/WxH`, with the chunk's frames for a chunk.
    package var name: String
    /// The template file, relative to the plan's folder when inside it.
    package var template: String
    package var variant: String
    package var width: Int
    package var height: Int
    /// First and last frame (inclusive).
    package var frames: [Int]
    package var outputs: [Output]
    /// The merge this chunk belongs to.
    package var merge: String?
  }

  /// Joining the chunks of one clip into its final outputs (`flick merge`).
  package struct Merge: Codable, Sendable, Equatable {
    package var id: String
    package var name: String
    /// First and last frame (inclusive) of the whole clip.
    package var frames: [Int]
    package var outputs: [Output]
    /// The ids of the chunk jobs, in frame order.
    package var chunks: [String]
  }

  package var format: Int
  /// The Flick version that planned (part of every id).
  package var flick: String
  /// The renderer fingerprint that planned (part of every id).
  package var renderer: String
  /// The manifest, relative to the plan's folder when inside it.
  package var manifest: String
  /// The output root, relative to the plan's folder when inside it.
  package var output: String
  package var jobs: [Job]
  package var merges: [Merge]

  /// The jobs of shard `shard` (1-based) of `count`, in plan order: a split balanced by each
  /// job's estimated cost (``ShardBalance``), a function of the plan alone, so every worker
  /// computes the same split without talking to the others.
  package func jobs(shard: Int, of count: Int) -> [Job] {
    let assigned = ShardBalance.assign(jobs, count: count)
    return zip(jobs, assigned).filter { $0.1 == shard - 1 }.map { $0.0 }
  }

  /// The largest plan file read, in bytes (256 MiB: 100,000 jobs take about 100 MB).
  package static let maximumBytes = 256 << 20

  /// Reads a plan file: a regular file of at most ``maximumBytes`` (a FIFO or device is refused,
  /// never read); its text is never quoted.
  package static func load(path: String) throws(BatchError) -> Plan {
    let data: Data
    do {
      data = Data(try ManifestScope.read(path, what: "plan", limit: maximumBytes, at: nil).utf8)
    } catch {
      throw .invalidInput(error.description)
    }
    let plan: Plan
    do {
      plan = try JSONDecoder().decode(Plan.self, from: data)
    } catch {
      let site = JSONDecodingSite.locate(error, in: data).map { ":\($0.line):\($0.column)" } ?? ""
      throw .invalidInput(
        "\(quoted: path)\(quoted: site): not a Flick plan (write one with 'flick plan MANIFEST -o \(quoted: path)'): "
          + DecodingProblem.reason(error))
    }
    guard plan.format == formatVersion else {
      throw .invalidInput(
        "\(quoted: path): plan format \(quoted: plan.format) is not the \(formatVersion) this "
          + "Flick reads; run 'flick plan' again")
    }
    return plan
  }

  /// The plan as pretty-printed JSON with sorted keys (stable bytes for the same plan).
  package func encoded() -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(self)).map { $0 + Data("\n".utf8) } ?? Data()
  }

  /// `path` relative to `folder` when it lies inside it, otherwise absolute.
  static func relative(_ path: String, to folder: String) -> String {
    let base = folder.hasSuffix("/") ? folder : folder + "/"
    if path == folder { return "." }
    return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
  }

  /// The manifest a plan names (`written`, its `manifest` field), resolved against the plan's
  /// `folder` and confined to it as a manifest confines its paths (``ManifestScope``: component by
  /// component through symbolic links, decided before existence), unless `policy` allows paths
  /// from anywhere (`--allow-outside-manifest`). A plan comes from the same place as its manifest
  /// (a pull request may carry both), so it cannot make Flick read a file elsewhere; the refusal
  /// quotes neither the path nor the file.
  ///
  /// - Returns: The absolute path as written (`.`/`..` removed, links kept), or the resolved path
  ///   when `..` after a link makes that lead elsewhere.
  package static func manifestPath(
    _ written: String, planPath: String, in folder: String, policy: ManifestPolicy
  ) throws(BatchError) -> String {
    let context = TemplateContext(baseFolder: folder, allowOutsideAssets: policy.allowOutsideFolder)
    switch context.confine(written) {
    case .success(let found):
      let lexical = absolute(written, in: folder)
      return (try? context.confine(lexical).get())?.path == found.path ? lexical : found.path
    case .failure(.outsideFolder):
      throw .invalidInput(
        "\(quoted: planPath): the manifest the plan names is outside the plan's folder (\(quoted: folder)); "
          + "write the plan beside its manifest or in a folder above it, "
          + "or pass --allow-outside-manifest to allow a manifest from anywhere")
    case .failure:
      throw .invalidInput("\(quoted: planPath): the plan names no manifest; run 'flick plan' again")
    }
  }

  /// `path` from a plan resolved against the plan's folder.
  static func absolute(_ path: String, in folder: String) -> String {
    Manifest.resolve(path, in: folder)
  }
}
