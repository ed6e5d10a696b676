import FlickMotion
import Foundation

/// The pictures this process has already checked and accepted: a template checks its SVG
/// pictures when it loads, and the renderer checks the bytes it reads again before librsvg gets
/// them; the same bytes under the same or a larger pixel cap are accepted without a second scan.
/// Bytes are compared whole (a file changed in between is scanned again), and the memory is
/// bounded: the oldest entries go past ``acceptedBytesLimit``.
extension SVGDocumentCheck {
  /// The most bytes of accepted pictures remembered (32 MiB, eight pictures at the size cap).
  package static let acceptedBytesLimit = 32 << 20

  private static let acceptedList = Locked<[(data: Data, maximumPixels: Int, summary: Summary)]>([])

  /// Whether `data` was accepted under a pixel cap of `maximumPixels` or less (a check under a
  /// larger cap would accept it too: the cap is the only thing that differs).
  package static func wasAccepted(_ data: Data, maximumPixels: Int) -> Bool {
    accepted(data, maximumPixels: maximumPixels) != nil
  }

  /// What the check found in `data` when it was accepted under a pixel cap of `maximumPixels`
  /// or less, else nil.
  static func accepted(_ data: Data, maximumPixels: Int) -> Summary? {
    acceptedList.withLock { list in
      list.first { $0.maximumPixels <= maximumPixels && $0.data.count == data.count && $0.data == data }?.summary
    }
  }

  static func remember(_ data: Data, maximumPixels: Int, summary: Summary) {
    acceptedList.withLock { list in
      list.removeAll { $0.data == data }
      list.append((data, maximumPixels, summary))
      var total = list.reduce(0) { $0 + $1.data.count }
      while total > acceptedBytesLimit, let first = list.first {
        total -= first.data.count
        list.removeFirst()
      }
    }
  }
}
