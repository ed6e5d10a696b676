// A UIKit-style PropertyAnimator over scene layers: a bar slides and fades; the script pauses
// it, scrubs back, reverses and lets it run home — every call at its scene time.
//
//     swift run flick-example-property-animator [OUTPUT_FOLDER]   → property-animator.mp4, .gif, .png
import FlickMotion
import FlickRaster
import FlickScene
import FlickVideo
import Foundation

var scene = Scene(
  size: Size(width: 320, height: 120), fps: 30, duration: 3, backgroundColor: .white,
  layers: [
    Layer(
      id: "bar", bounds: Rect(x: 0, y: 0, width: 60, height: 60), position: Point(x: 50, y: 60),
      backgroundColor: Color(0xFF9F0A), cornerRadius: 12)
  ])

// UIKit's calls, each at its scene time; none throws: validate() reports an illegal one.
scene.addPropertyAnimator(duration: 1, timingParameters: .cubic(.easeInEaseOut)) {
  $0.addAnimations(at: 0) {
    $0["bar"].position = Point(x: 270, y: 60)
    $0["bar"].backgroundColor = Color(0x5E5CE6)
  }
  $0.startAnimation(at: 0.2)
  $0.pauseAnimation(at: 0.7)
  $0.setFractionComplete(0.2, at: 1.2)
  $0.continueAnimation(withTimingParameters: nil, durationFactor: 1, at: 1.6)
}
do {
  try scene.validate()
  let folder = CommandLine.arguments.dropFirst().first ?? "out/examples"
  try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  let session = RenderSession(
    scene: scene,
    outputs: [
      try OutputTarget(path: "\(folder)/property-animator.mp4"),
      try OutputTarget(path: "\(folder)/property-animator.gif"),
    ])
  _ = try session.run()
  try Renderer().render(scene.renderTree(at: 2.9)).writePNG(to: "\(folder)/property-animator.png")
  print("wrote \(folder)/property-animator.mp4, .gif, .png")
} catch {
  FileHandle.standardError.write(Data("property-animator: \(error)\n".utf8))
  exit(1)
}
