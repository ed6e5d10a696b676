import FlickMotion

/// The raw frames an ffmpeg reads on its standard input: their size and pixel layout (packed
/// BGRA, premultiplied or straight, or Flick's `yuv420p` planes).
struct RawFrameFormat: Sendable, Equatable {
  /// Frame width and height in pixels.
  var width: Int, height: Int
  /// Whether the bytes are straight-alpha BGRA (premultiplied otherwise).
  var straightAlpha: Bool
  /// Whether the bytes are `yuv420p` planes (``YUV420Converter``) instead of BGRA.
  var yuv420: Bool

  /// Bytes in one frame.
  var byteCount: Int { yuv420 ? YUV420Converter.frameSize(width: width, height: height) : width * height * 4 }

  /// The bytes of `frame` in this layout.
  ///
  /// - Throws: ``VideoError/invalidSize(width:height:reason:)`` naming `destination` when the
  ///   frame is not of this size (or cannot be converted to it).
  func bytes(of frame: PreparedFrame, for destination: String) throws(VideoError) -> [UInt8] {
    let sameSize = frame.frame.width == width && frame.frame.height == height
    let bytes: [UInt8] =
      if !sameSize { [] } else if yuv420 { frame.yuv420Bytes() } else { frame.bytes(straight: straightAlpha) }
    guard sameSize, bytes.count == byteCount else {
      throw .invalidSize(
        width: frame.frame.width, height: frame.frame.height,
        reason: "the renderer made a frame of another size than \(quoted: destination) was started with")
    }
    return bytes
  }
}
