import FlickMotion
import Foundation

extension RenderSession {
  /// Refuses an output that would replace a file the render reads: `inputs` are the template
  /// (or Lottie file), the `--params` files and the assets the template loaded. For a PNG
  /// sequence, a file in its folder named like one of its frames counts. The outputs are renamed
  /// over their destinations at the end: `-o tpl.json5 --format mp4` left an MP4 where the
  /// template was, and `-o images/cover.png --format webp` replaced a picture the template draws.
  /// Entries are compared as ``OutputEntry/identity(_:)`` (folders resolved, byte for byte).
  ///
  /// - Throws: ``VideoError/invalidOption(_:)`` (invalid input, exit 2) naming both.
  package func refuseOutputsOverInputs(_ inputs: [String]) throws(VideoError) {
    try Self.refuse(outputs, over: inputs)
  }

  /// ``refuseOutputsOverInputs(_:)`` for any `outputs` (a batch's merged clips as well as its
  /// rendered ones). Each input's entry and folder is resolved once, so a plan's 100,000 jobs over
  /// its inputs cost one lookup per output.
  package static func refuse(_ outputs: [OutputTarget], over inputs: [String]) throws(VideoError) {
    guard !inputs.isEmpty else { return }
    var byEntry: [[UInt8]: String] = [:]
    var byFolder: [[UInt8]: [(name: String, input: String)]] = [:]
    for input in inputs {
      let entry = OutputEntry.identity(input)
      if byEntry[entry] == nil { byEntry[entry] = input }
      let url = URL(fileURLWithPath: OutputEntry.entry(input))
      byFolder[OutputEntry.identity(url.deletingLastPathComponent().path), default: []].append(
        (url.lastPathComponent, input))
    }
    for output in outputs {
      if output.format == .png, let pattern = FrameNamePattern(output.path) {
        for (name, input) in byFolder[OutputEntry.identity(pattern.directory)] ?? []
        where name.hasPrefix(pattern.prefix) && name.hasSuffix(pattern.suffix) {
          throw .invalidOption(
            "\(quoted: output.path) would write its frames beside \(quoted: input), which the render reads, under "
              + "names like it; choose another folder")
        }
      } else if let input = byEntry[OutputEntry.identity(output.path)] {
        throw .invalidOption(replacing(output.path, input))
      }
    }
  }

  /// Why a file output at `path` may not be written: it is one of `inputs` (the same entry,
  /// ``OutputEntry/identity(_:)``); nil when it is none of them. `flick still` asks it too.
  package static func inputReplaced(by path: String, inputs: [String]) -> String? {
    let entry = OutputEntry.identity(path)
    guard let input = inputs.first(where: { OutputEntry.identity($0) == entry }) else { return nil }
    return replacing(path, input)
  }

  /// Why a command's own file beside its outputs (`flick plan -o`, a run or merge `--report`, a
  /// `status --html` gallery) may not be written at `path`: it is one of `inputs` (the plan, the
  /// manifest, a template, a params or data file, an asset; compared as in
  /// ``inputReplaced(by:inputs:)``), or it
  /// is named like a file Flick reads (``OutputFormat/inputKind(named:)``, the name rule of
  /// ``refuseInputNames()``) other than a JSON document's own `.json` when `json`. Nil when it
  /// may be written.
  package static func sideOutputRefusal(_ path: String, json: Bool, inputs: [String]) -> String? {
    let entry = OutputEntry.identity(path)
    if let input = inputs.first(where: { OutputEntry.identity($0) == entry }) {
      return "'\(quoted: path)' is '\(quoted: input)', which the command reads (the plan, the manifest, a template, a "
        + "params or data file or an asset); a plan, report or gallery never replaces its command's input"
    }
    guard let kind = OutputFormat.inputKind(named: path) else { return nil }
    if json, URL(fileURLWithPath: path).pathExtension.lowercased() == "json" { return nil }
    return "'\(quoted: path)' is named like " + kind + ", which Flick would read as one; give it the extension of "
      + (json ? "a JSON document (.json)" : "its format")
  }

  private static func replacing(_ path: String, _ input: String) -> String {
    "\(quoted: path) is \(quoted: input), which the render reads (the template, a params or data file, the "
      + "manifest or an asset); an output never replaces its own input"
  }
}
