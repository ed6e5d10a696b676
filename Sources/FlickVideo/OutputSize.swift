import FlickMotion
import FlickRaster

/// The frame sizes `--size WIDTHxHEIGHT` accepts for a canvas, and the even size an MP4 without
/// `--pad` is told to use: one rule, so the size a message suggests is one `--size` takes.
///
/// `--size` sets the scale from the width (width ÷ the canvas's width) and takes the height the
/// frames then have, each side rounded to the nearest pixel as frames are drawn
/// (``FlickRaster/Renderer/pixelSize(of:scale:)``); any other height would stretch the canvas.
package enum OutputSize {
  /// The scale `--size` with `width` pixels across `canvas` renders at.
  package static func scale(forWidth width: Int, canvas: Size) -> Double {
    Double(width) / canvas.width
  }

  /// The frames `--size` with `width` gives for `canvas`: `width` and the height that keeps the
  /// canvas's aspect ratio, the only height `--size` accepts with that width.
  package static func size(forWidth width: Int, canvas: Size) -> (width: Int, height: Int) {
    Renderer.pixelSize(of: canvas, scale: scale(forWidth: width, canvas: canvas))
  }

  /// Whether `--size WIDTHxHEIGHT` is accepted for `canvas`: both sides in 1…16384 and the
  /// height the one that keeps the aspect ratio (``size(forWidth:canvas:)``).
  package static func accepts(width: Int, height: Int, canvas: Size) -> Bool {
    guard Renderer.pixelSides.contains(width), Renderer.pixelSides.contains(height) else { return false }
    let frames = size(forWidth: width, canvas: canvas)
    return frames.width == width && frames.height == height
  }

  /// The smallest size at least `width` pixels wide that `--size` accepts for `canvas` with even
  /// sides and that ffmpeg encodes as H.264 (``RenderLimits/encoderRefuses(_:width:height:)``),
  /// or nil when there is none within 16384 pixels a side (a canvas many times wider than
  /// high, or the reverse). For a canvas of whole points its double size is such a size, so
  /// the search ends by then.
  package static func evenSize(from width: Int, canvas: Size) -> (width: Int, height: Int)? {
    var w = max(2, width + width % 2)
    while w <= Renderer.pixelSides.upperBound {
      let frames = size(forWidth: w, canvas: canvas)
      if frames.width == w, frames.height % 2 == 0, accepts(width: w, height: frames.height, canvas: canvas) {
        guard RenderLimits.encoderRefuses(.mp4, width: w, height: frames.height) == nil else { return nil }
        return frames
      }
      w += 2
    }
    return nil
  }

  /// The size to name when `--size WIDTHx…` (or a batch manifest's size) does not keep the
  /// canvas's aspect ratio, one `--size` accepts: the frames `width` gives
  /// (``size(forWidth:canvas:)``), or where the outputs need even sides (an MP4 without `--pad`)
  /// and one of those is odd, the smallest even size from that width (``evenSize(from:canvas:)``).
  /// Nil when there is none (the height `width` gives is over 16384 pixels, or no even size
  /// within 16384 pixels a side keeps the aspect ratio).
  package static func advised(forWidth width: Int, canvas: Size, evenSides: Bool) -> (width: Int, height: Int)? {
    let frames = size(forWidth: width, canvas: canvas)
    guard accepts(width: frames.width, height: frames.height, canvas: canvas) else { return nil }
    guard evenSides, frames.width % 2 == 1 || frames.height % 2 == 1 else { return frames }
    return evenSize(from: width, canvas: canvas)
  }

  /// Why an advised size (``advised(forWidth:canvas:evenSides:)``) is not the height the width
  /// gives, when it is the even one, and what to say when there is none: for the messages that name it.
  package static func adviceNote(forWidth width: Int, canvas: Size, evenSides: Bool) -> String {
    guard let advised = advised(forWidth: width, canvas: canvas, evenSides: evenSides) else {
      return evenSides
        ? "no size with even sides (which H.264 in yuv420p needs) up to 16384 pixels a side keeps it"
        : "no size \(width) pixels wide keeps it within 16384 pixels a side"
    }
    return advised == size(forWidth: width, canvas: canvas)
      ? "" : " (the smallest size from this width with even sides, which H.264 in yuv420p needs)"
  }
}
