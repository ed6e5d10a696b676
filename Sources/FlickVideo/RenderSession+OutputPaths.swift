import Foundation

extension RenderSession {
  /// Checks that no output is written through a symbolic link, over a device, FIFO or socket,
  /// and that no two outputs share a file or folder (they would share its temporary file), also
  /// through a linked folder (`a.mp4` and `self/a.mp4`, `self` a link to `.`).
  ///
  /// - Throws: ``VideoError/linkedOutput(path:)`` or ``VideoError/invalidOption(_:)``.
  package func checkOutputPaths() throws(VideoError) {
    var seen: [[UInt8]: String] = [:]
    for output in outputs {
      let folder = output.format == .png ? (FrameNamePattern(output.path)?.directory ?? output.path) : output.path
      // No output is written through a symbolic link (nor a sequence into or out of a linked
      // folder), nor over a device, FIFO or socket; the rest of the destination checks
      // (``OutputEntry/checkDestination(_:folder:naming:)``) come when each output is opened.
      try OutputEntry.refuseOddEntry(folder, naming: output.path)
      let key = OutputEntry.identity(folder)
      if let first = seen[key] {
        throw .invalidOption(
          "\(quoted: output.path) is given twice as an output (also as \(quoted: first)); "
            + "each output needs its own path")
      }
      seen[key] = output.path
    }
  }

  /// Refuses an output named like a file Flick reads (``OutputFormat/inputKind(named:)``:
  /// `x.json5`, `x.json`, `x.svg`, a PNG sequence's folder included): `flick templates` and the
  /// studio would list a GIF named `intro.json5` as a template.
  ///
  /// - Throws: ``VideoError/invalidOption(_:)``.
  package func refuseInputNames() throws(VideoError) {
    for output in outputs {
      let folder = output.format == .png ? (FrameNamePattern(output.path)?.directory ?? output.path) : output.path
      if let kind = OutputFormat.inputKind(named: folder) {
        throw .invalidOption(
          "\(quoted: output.path) is named like " + kind + ", which Flick would read as one; give the output the "
            + (output.format == .png
              ? "name of a folder (frames/)" : "extension of its format (.\(escaped: output.format.rawValue))"))
      }
    }
  }
}
