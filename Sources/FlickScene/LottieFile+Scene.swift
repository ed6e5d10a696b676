import FlickMotion

extension LottieFile {
  /// The id of the one layer of ``scene(fps:backgroundColor:)``.
  package static let sceneLayerID = "lottie"

  /// The whole file as a scene: its own canvas and duration, one Lottie layer filling it, whose
  /// frame follows the clock at the file's own rate (`fr`). Rendering it at another `fps`
  /// samples the same animation at other instants; at the file's rate frame `n` is the file's
  /// frame `n`.
  ///
  /// - Parameters:
  ///   - fps: Output frames per second (default: `fr` rounded to a whole number).
  ///   - backgroundColor: Behind the animation (Lottie files are transparent by themselves).
  package func scene(fps: Int? = nil, backgroundColor: Color = .clear) -> Scene {
    var layer = Layer(id: Self.sceneLayerID)
    layer.bounds = Rect(origin: .zero, size: size)
    layer.position = Point(x: size.width / 2, y: size.height / 2)
    let content = LottieContent(path: path, size: size, frameCount: frameCount, frameRate: frameRate, speed: 1)
    layer.content = .lottie(content)
    let clocks = content.clock(layerID: Self.sceneLayerID).map { [$0] } ?? []
    return Scene(
      size: size, fps: fps ?? max(1, Int(frameRate.rounded())), duration: duration, backgroundColor: backgroundColor,
      layers: [layer], animations: clocks)
  }
}
