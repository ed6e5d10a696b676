import FlickMotion
import FlickScene

extension Template {
  /// The decoded `canvas` section.
  struct Canvas {
    var scene: Scene
    /// A gradient background, drawn as a full-canvas layer under every other layer.
    var gradient: Layer?
    /// `duration: "auto"`: the scene lasts until every animation has settled.
    var automaticDuration: Bool
  }

  /// The `canvas` section; `fps` (``TemplateOptions/fps``) replaces its frame rate.
  static func decodeCanvas(_ node: TemplateNode, fps override: Int? = nil) throws(TemplateError) -> Canvas {
    let o = try node.object(allowed: ["width", "height", "fps", "duration", "background"])
    func required(_ key: String, _ what: String) throws(TemplateError) -> TemplateNode {
      guard let n = o[key] else { throw node.error("missing '\(quoted: key)' (\(quoted: what))") }
      return n
    }
    let width = try required("width", "pixels, 1…16384").int(in: 1...16384)
    let height = try required("height", "pixels, 1…16384").int(in: 1...16384)
    let written = try o["fps"]?.int(in: 1...240) ?? 60
    let fps = override ?? written
    let durationNode = try required("duration", "seconds, or \"auto\"")
    var duration = 1.0
    var automatic = false
    if case .number = durationNode.value.kind {
      duration = try durationNode.double(in: TemplateNode.positiveSeconds)
    } else {
      _ = try durationNode.word(oneOf: ["auto"], orElse: "a number of seconds in 0.001…3600")
      automatic = true
    }
    var background = Color.white
    var gradient: Layer?
    if let n = o["background"] {
      if case .object = n.value.kind {
        let g = try decodeBackgroundGradient(n)
        background = .clear
        gradient = Layer(
          id: backgroundLayerID, bounds: Rect(x: 0, y: 0, width: Double(width), height: Double(height)),
          position: Point(x: Double(width) / 2, y: Double(height) / 2), content: .gradient(g))
      } else {
        guard case .string = n.value.kind else {
          throw n.expected(
            "a colour string like \"#FF5A5F\" or a gradient object like { colors: [\"#000\", \"#FFF\"] }")
        }
        background = try n.color()
      }
    }
    let scene = Scene(
      size: Size(width: Double(width), height: Double(height)), fps: fps, duration: duration,
      backgroundColor: background)
    return Canvas(scene: scene, gradient: gradient, automaticDuration: automatic)
  }

  /// The id of the layer a gradient background becomes (timeline entries can animate it).
  static let backgroundLayerID = "background"

  /// `background: { colors: […], kind, locations, startPoint, endPoint }`, as a gradient layer's keys.
  static func decodeBackgroundGradient(_ node: TemplateNode) throws(TemplateError) -> GradientContent {
    let o = try node.object(allowed: ["colors", "kind", "locations", "startPoint", "endPoint"])
    return try decodeGradient(node, o, owner: "a gradient background")
  }

  /// The length of a `duration: "auto"` scene: up to the frame after the first frame at or after
  /// the settle instant (``settleTime(of:canvas:)``, reached within the boundary tolerance), so that frame, the scene's last, shows the
  /// settled state (a `set` placed `after` the last motion included) and every frame time stays
  /// an exact multiple of 1/fps. A scene that settles at 0.5 s at 10 fps lasts 0.6 s: 6 frames,
  /// the last at 0.5 s.
  static func automaticDuration(of scene: Scene, canvas: TemplateNode) throws(TemplateError) -> Double {
    let settle = try settleTime(of: scene, canvas: canvas)
    let fps = Double(scene.fps)
    // The first frame whose time (index / fps, as the renderer computes it) is at or after it,
    // within the boundary tolerance: a settle instant summed to 0.30000000000000004 is the frame
    // at 0.3 s, which shows the settled state (``FlickMotion/MediaTiming``).
    var last = (settle * fps).rounded(.up)
    while last > 0, MediaTiming.hasReached(settle, at: (last - 1) / fps) { last -= 1 }
    while !MediaTiming.hasReached(settle, at: last / fps) { last += 1 }
    return min((last + 1) / fps, 3600)
  }

  /// The end of the last animation: when every animation has settled and the scene holds still.
  /// An animation shows until a later one of the same layer property that holds after its own
  /// end begins (the timeline lists one property's animations in begin order, and a later one
  /// wins): a 5 s tween taken over at 0.5 s by a 0.3 s one settles at 0.8 s, and a `spin` that
  /// would run forever ends where a `spin` to 0 takes it over.
  static func settleTime(of scene: Scene, canvas: TemplateNode) throws(TemplateError) -> Double {
    var end = 0.0
    // Per `layer.property`, the earliest begin of a later animation that holds from then on.
    var takenOver: [String: Double] = [:]
    for animation in scene.animations.reversed() {
      let key = animation.layerID + "." + animation.propertyName
      var finish = animation.beginTime + animation.duration
      if let cut = takenOver[key] { finish = min(finish, max(cut, animation.beginTime)) }
      if animation.holdsAfterItsEnd {
        takenOver[key] = min(takenOver[key] ?? .infinity, animation.beginTime)
      }
      guard finish.isFinite else {
        throw canvas.error(
          "duration \"auto\" needs every animation to end, but the \(quoted: animation.propertyName) animation of "
            + "'\(quoted: animation.layerID)' runs forever; give the duration in seconds")
      }
      end = max(end, finish)
    }
    guard end > 0 else {
      throw canvas.error("duration \"auto\" needs a timeline with at least one animation; give the duration in seconds")
    }
    return min(end, 3600)
  }
}
