import FlickMotion
import FlickRaster
import FlickScene
import FlickTemplates
import Foundation

extension Flick {
  /// Options of every command that renders a SOURCE (a template or a Lottie file).
  static let sceneOptions: Set<String> = ["background", "shutter-angle", "motion-blur-samples"]
  /// What the numbers of ``sceneOptions`` take.
  static let sceneNumbers: [String: NumberRule] = [
    "shutter-angle": .decimal(MotionBlur.shutterAngles),
    "motion-blur-samples": .whole(MotionBlur.sampleCounts),
  ]
  /// The checks of ``sceneNumbers``, run as the arguments are parsed.
  static let sceneChecks = NumberRule.checks(sceneNumbers)
  /// Flags of every command that renders a SOURCE.
  static let sceneFlags: Set<String> = ["motion-blur", "no-motion-blur"]

  /// The help lines for ``sceneOptions`` and ``sceneFlags``.
  static let sceneOptionsHelp = """
      --background C          the colour behind everything: #RRGGBB, #RRGGBBAA or transparent
                              (default: the template's; white for a Lottie file)
      --motion-blur           average each moving frame over the shutter (default 180°, 16 samples;
                              a template's motionBlur sets its own); --no-motion-blur turns it off
      --shutter-angle A       shutter angle in degrees, 1…720 (implies --motion-blur)
      --motion-blur-samples N instants averaged per moving frame, 2…64 (implies --motion-blur)
    """

  /// What a Lottie file gets behind it when no `--background` is given: Lottie files are
  /// transparent, but most outputs (MP4) are not, and players show them on white.
  static let lottieBackground = Color.white

  /// The scene of a Lottie file as every command draws it before `--background` applies: on
  /// ``lottieBackground``. `flick info` reports that background from here too.
  static func lottieScene(_ file: LottieFile, fps: Int? = nil) -> Scene {
    file.scene(fps: fps, backgroundColor: lottieBackground)
  }

  /// A scene's background as `flick info` names it: `transparent`, or `#RRGGBB[AA]`.
  static func backgroundText(_ color: Color) -> String {
    color.alpha == 0 ? "transparent" : color.hexString
  }

  /// The scene a SOURCE argument names: a Lottie file (recognised by its content, whatever its
  /// name), or else a template file or bundled template name. Every Lottie file it uses is
  /// checked with rlottie first, so a bad one is an invalid-input error (exit 2) naming it.
  /// `fps` replaces the file's frame rate (`--fps`) as the scene is decoded: nothing changes the
  /// rate of a decoded scene. The file is read and parsed once (``readSource(_:_:)``); with
  /// `angleWarnings`, a template's bare angles over a full turn are warned about from that parse.
  static func loadScene(
    _ argument: String, _ arguments: Arguments, fps: Int? = nil, decodeObserver: DecodeObserver? = nil,
    assetLog: AssetLog? = nil, angleWarnings: Bool = false
  ) throws(CommandError) -> Scene {
    let source = try readSource(argument, arguments)
    var scene: Scene
    var warnings: [String] = []
    if let file = try lottieFile(source, maximumPixels: Limits.template(arguments).maximumImagePixels) {
      if !arguments.all("set").isEmpty || !arguments.all("params").isEmpty {
        throw CommandError.usage(
          "\(quoted: argument) is a Lottie file: it takes no template parameters (--set, "
            + "--params)")
      }
      scene = lottieScene(file, fps: fps)
    } else {
      let template = try loadTemplate(
        argument, arguments, assetLog: assetLog, fps: fps, decodeObserver: decodeObserver, source: source,
        angleWarnings: angleWarnings)
      scene = template.scene
      warnings = template.angleWarnings
    }
    if let text = arguments.value("background") { scene.backgroundColor = try backgroundColor(text) }
    scene.motionBlur = try motionBlur(arguments, default: scene.motionBlur)
    try checkVectorFiles(scene)
    for warning in warnings { log("warning: \(escaped: warning)") }
    return scene
  }

  /// The shutter the options ask for, starting from the template's.
  static func motionBlur(_ a: Arguments, default given: MotionBlur?) throws(CommandError) -> MotionBlur? {
    if a.has("no-motion-blur") {
      guard !a.has("motion-blur"), a.value("shutter-angle") == nil, a.value("motion-blur-samples") == nil else {
        throw CommandError.usage("--no-motion-blur cannot be combined with the other motion blur options")
      }
      return nil
    }
    let angle = try a.number("shutter-angle", in: sceneNumbers)
    let samples = try a.whole("motion-blur-samples", in: sceneNumbers)
    guard a.has("motion-blur") || angle != nil || samples != nil else { return given }
    var blur = given ?? MotionBlur()
    if let angle { blur.shutterAngle = angle }
    if let samples { blur.samples = samples }
    return blur
  }

  /// The Lottie file `source` is, inspected, or nil when it is not one (by content).
  ///
  /// - Parameter maximumPixels: The cap on its canvas and each embedded image (`--max-pixels`).
  /// - Throws: exit 2 when it is a Lottie file that is refused (``LottieFile/load(path:maximumPixels:)``)
  ///   or uses features rlottie does not draw.
  static func lottieFile(
    _ source: SourceFile, maximumPixels: Int = LottieFile.defaultMaximumPixels
  ) throws(CommandError) -> LottieFile? {
    guard LottieFile.isLottie(source.head, path: source.path) else { return nil }
    do {
      let file = try LottieFile.loadChecked(path: source.path, head: source.head, maximumPixels: maximumPixels).file
      try file.requireSupported()
      return file
    } catch {
      throw CommandError(message: error.description, code: .invalidInput)
    }
  }

  /// Loads every Lottie layer's file with rlottie (exit 2 naming the file when one fails).
  static func checkVectorFiles(_ scene: Scene) throws(CommandError) {
    do {
      try Renderer().checkVectorFiles(of: scene.renderTree(at: 0))
    } catch {
      throw CommandError(message: error.description, code: .invalidInput)
    }
  }

  static func backgroundColor(_ text: String) throws(CommandError) -> Color {
    if text.lowercased() == "transparent" || text.lowercased() == "none" { return .clear }
    guard let color = Color(hex: text) else {
      let nonHex = Character.hasNonHexDigit(text)
      throw CommandError.usage(
        "--background expects #RRGGBB, #RRGGBBAA or transparent\(nonHex ? " (hex digits 0-9 a-f)" : ""), "
          + "found '\(quoted: text)'")
    }
    return color
  }

  /// `flick info` for a Lottie file: canvas, timing, layers, markers and what rlottie makes of it.
  static func describeLottie(_ source: SourceFile, _ arguments: Arguments) throws(CommandError) -> String? {
    guard LottieFile.isLottie(source.head, path: source.path) else { return nil }
    let path = source.path
    let file: LottieFile
    let maximumPixels = try Limits.template(arguments).maximumImagePixels
    do {
      file = try LottieFile.loadChecked(path: path, head: source.head, maximumPixels: maximumPixels).file
    } catch {
      throw CommandError(message: error.description, code: .invalidInput)
    }
    var lines: [String] = []
    // Names, the version and markers come from the file, the path from the command line: escaped
    // and cut at MessageText.echoLimit like every echo of input (a name cannot move the cursor,
    // reorder the line or start a forged `flick:` or `::error` line).
    lines.append(
      "Lottie file" + (file.name.isEmpty ? "" : " — \(quoted: file.name)") + " (bodymovin \(quoted: file.version))")
    lines.append("file: \(quoted: path)")
    let fps = DecimalText.format(file.frameRate)
    lines.append(
      "canvas: \(Int(file.size.width))×\(Int(file.size.height)) px, \(fps) fps, "
        + "\(DecimalText.format(file.duration)) s, \(file.frameCount) frames "
        + "(ip \(DecimalText.format(file.inPoint)), op \(DecimalText.format(file.outPoint))), background "
        + backgroundText(lottieScene(file).backgroundColor) + " (--background sets another)")
    if file.frameRate != file.frameRate.rounded() {
      lines.append(
        "  renders at \(max(1, Int(file.frameRate.rounded()))) fps unless --fps is given (frames follow time)")
    }
    lines.append("")
    lines.append(
      "layers: \(file.layers.count)"
        + (file.precompositionCount > 0 ? ", precompositions: \(file.precompositionCount)" : ""))
    for layer in file.layers {
      lines.append("  \(quoted: layer.kind)  " + (layer.name.isEmpty ? "(unnamed)" : "\(quoted: layer.name)"))
    }
    lines.append("")
    if file.markers.isEmpty {
      lines.append("markers: none")
    } else {
      lines.append("markers:")
      for m in file.markers {
        let end = m.duration > 0 ? "–\(DecimalText.format(m.frame + m.duration))" : ""
        lines.append("  frame \(DecimalText.format(m.frame))\(end)  \(quoted: m.name)")
      }
    }
    lines.append("")
    if file.unsupportedFeatures.isEmpty {
      do {
        try Renderer().checkVectorFiles(of: file.scene().renderTree(at: 0))
        lines.append("rlottie \(Renderer.rlottieVersion): loads it; every feature used is drawn")
      } catch {
        lines.append("rlottie \(Renderer.rlottieVersion): \(error.description)")
      }
    } else {
      lines.append("not drawn by rlottie \(Renderer.rlottieVersion) (render refuses the file):")
      for feature in file.unsupportedFeatures { lines.append("  \(feature)") }
    }
    return lines.joined(separator: "\n")
  }
}
