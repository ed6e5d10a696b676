/// Which layouts of each rendered frame the sinks of a render read between them, and so what a
/// raster worker makes of a frame before it is delivered (``PreparedFrame``).
///
/// A render derives it from its sinks in one place (``init(sinks:)``); ``RenderPipeline`` hands it
/// to every worker unchanged.
package struct FrameLayouts: Sendable, Equatable {
  /// Whether a sink reads straight-alpha BGRA (``PreparedFrame/straight``).
  package var straightAlpha: Bool
  /// Whether a sink reads premultiplied BGRA (``PreparedFrame/premultiplied``). When none does
  /// but one reads ``straightAlpha``, a frame is converted in place instead of copied.
  package var keepsPremultiplied: Bool
  /// Whether a sink reads `yuv420p` planes (``PreparedFrame/yuv420``), which the workers then
  /// make.
  package var yuv420: Bool
  /// Whether a sink reads BGRA at all. When none does (every sink reads the planes alone), the
  /// worker is done with a frame's pixels once it has converted them and draws its next frame
  /// over them (``RenderPipeline``), so the frames in flight hold their planes alone.
  package var keepsPixels: Bool

  /// The layouts named; by default premultiplied BGRA alone.
  package init(
    straightAlpha: Bool = false, keepsPremultiplied: Bool = true, yuv420: Bool = false, keepsPixels: Bool = true
  ) {
    self.straightAlpha = straightAlpha
    self.keepsPremultiplied = keepsPremultiplied
    self.yuv420 = yuv420
    self.keepsPixels = keepsPixels
  }

  /// What `sinks` read between them.
  package init(sinks: [any FrameSink]) {
    self.init(
      straightAlpha: sinks.contains { $0.wantsStraightAlpha },
      keepsPremultiplied: sinks.contains { !$0.wantsStraightAlpha },
      yuv420: sinks.contains { $0.wantsYUV420 },
      keepsPixels: sinks.contains { $0.readsPixels })
  }

  /// Premultiplied BGRA alone (a PNG sequence, a comparison).
  package static let premultiplied = FrameLayouts()
  /// Straight-alpha BGRA beside the premultiplied bytes (a GIF's or an APNG's encoder).
  package static let premultipliedAndStraight = FrameLayouts(straightAlpha: true)
}
