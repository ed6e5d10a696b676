import FlickMotion
import FlickRaster
import Foundation

extension GoldenVerifier {
  /// `flick diff`'s verdict for one pair of PNG files. Each file is read and decoded once
  /// (``ImageComparator/compareFileImages(expected:actual:expectedRenderer:actualRenderer:)``);
  /// when they differ and there is a report folder, `<folder>/expected.png` and `actual.png`
  /// are the two files themselves, byte for byte (their own renderer chunks, their straight-alpha
  /// pixels), and the diff, side-by-side, zoom and flicker images are drawn from their pixels.
  ///
  /// - Parameters:
  ///   - name: The file name the verdict names.
  ///   - folder: The pair's artefact folder name inside `reportDirectory`.
  package func comparePair(
    name: String, expected: String, actual: String, folder: String, into reportDirectory: String?
  ) -> FrameVerdict {
    do {
      // Each file's own 'flick-renderer' chunk decides exact or perceptual, never a manifest
      // beside it (a file without one is of an unknown renderer: exact).
      let pair = try comparator.compareFileImages(expected: expected, actual: actual)
      let c = pair.comparison
      var v = FrameVerdict(
        name: name, time: name, seconds: nil, goldenPath: expected, status: FrameVerdict.status(for: c),
        comparison: c, message: c.summary)
      if !c.passed, reportDirectory != nil {
        v.artifacts = writeArtifacts(
          name: folder, expected: pair.expected.frame, actual: pair.actual.frame, comparison: c,
          into: reportDirectory, expectedFile: pair.expected.fileBytes, actualFile: pair.actual.fileBytes)
      }
      v.comparison?.pixelClasses = []
      return v
    } catch {
      return FrameVerdict(
        name: name, time: name, seconds: nil, goldenPath: expected, status: .unreadable, message: error.description)
    }
  }
}
