extension ImageHeader {
  /// The most scans an embedded progressive JPEG may have: 100, the decoder's own cap
  /// (`FLICK_JPEG_MAXIMUM_SCANS` in CJPEG's shim.h, for a template's `contents`). Each scan is a
  /// pass over the whole image, so a file of a few kilobytes that is nothing but refinement scans
  /// takes seconds to minutes to decode; real progressive files have about ten.
  package static let maximumJPEGScans = 100

  /// How many scans (SOS markers) libjpeg reads in the JPEG `b`, counted up to `limit + 1` (then
  /// it stops), to the end of the bytes (past an EOI marker too, which costs a real file
  /// nothing: no decoder's reading is assumed to stop there). Markers are found the way libjpeg finds them
  /// (``jpegFrameSize(_:)``): an entropy-coded segment is skipped as bytes before the next
  /// marker, 0xFF 0x00 is data and a restart marker has no length, so the scans counted are the
  /// scans decoded. Used for the JPEGs that another library decodes (embedded in an SVG picture
  /// or a Lottie file), which the decoder's own cap does not reach.
  static func jpegScans(_ b: [UInt8], upTo limit: Int) -> Int {
    var scans = 0
    var i = 2
    while true {
      var marker: UInt8 = 0
      repeat {
        while i < b.count, b[i] != 0xFF { i += 1 }  // garbage, or entropy-coded data
        while i < b.count, b[i] == 0xFF { i += 1 }  // fill bytes
        guard i < b.count else { return scans }
        marker = b[i]
        i += 1
      } while marker == 0x00
      if (0xD0...0xD9).contains(marker) || marker == 0x01 { continue }  // no length
      if marker == 0xDA {
        scans += 1
        if scans > limit { return scans }
      }
      guard i + 2 <= b.count else { return scans }
      i += max(2, Int(b[i]) << 8 | Int(b[i + 1]))
    }
  }
}
