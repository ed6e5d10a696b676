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
    for output in outputs {
      if output.format == .png, let pattern = FrameNamePattern(output.path) {
        let folder = OutputEntry.identity(pattern.directory)
        for input in inputs {
          let url = URL(fileURLWithPath: OutputEntry.entry(input))
          let name = url.lastPathComponent
          guard OutputEntry.identity(url.deletingLastPathComponent().path) == folder,
            name.hasPrefix(pattern.prefix), name.hasSuffix(pattern.suffix)
          else { continue }
          throw .invalidOption(
            "\(quoted: output.path) would write its frames beside \(quoted: input), which the render reads, under "
              + "names like it; choose another folder")
        }
      } else if let refusal = Self.inputReplaced(by: output.path, inputs: inputs) {
        throw .invalidOption(refusal)
      }
    }
  }

  /// Why a file output at `path` may not be written: it is one of `inputs` (the same entry,
  /// ``OutputEntry/identity(_:)``); nil when it is none of them. `flick still` asks it too.
  package static func inputReplaced(by path: String, inputs: [String]) -> String? {
    let entry = OutputEntry.identity(path)
    guard let input = inputs.first(where: { OutputEntry.identity($0) == entry }) else { return nil }
    return "\(quoted: path) is \(quoted: input), which the render reads (the template, a --params file or an "
      + "asset); an output never replaces its own input"
  }
}
