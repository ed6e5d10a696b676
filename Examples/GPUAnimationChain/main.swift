// A GPUAnimation chain (seed 002): a dot springs right while fading, waits, tweens back, then a
// second dot grows — each group at the exact completion time of the one before.
//
//     swift run flick-example-chain [OUTPUT_FOLDER]   → chain.mp4, .gif, .png
import FlickMotion
import FlickRaster
import FlickScene
import FlickVideo
import Foundation

let dot = Layer(
  id: "dot", bounds: Rect(x: 0, y: 0, width: 40, height: 40), position: Point(x: 50, y: 60),
  backgroundColor: Color(0xFF375F), cornerRadius: 20)
let ring = Layer(
  id: "ring", bounds: Rect(x: 0, y: 0, width: 40, height: 40), position: Point(x: 160, y: 120),
  backgroundColor: .clear, cornerRadius: 20, borderWidth: 4, borderColor: Color(0x30D158))
var scene = Scene(
  size: Size(width: 320, height: 160), fps: 30, duration: 3, backgroundColor: Color(0x1C1C1E), layers: [dot, ring])

// GPUAnimation's `animate(dot) { … }.delay(…).animate { … }.then { … }`, run at 0.2 s.
scene.run(
  .animate(dot) {
    $0.position.target = Point(x: 270, y: 60)
    $0.position.type = .spring(stiffness: 200, damping: 14)
    $0.opacity.target = 0.4
  }
  .delay(0.3)
  .animate {
    $0.position.target = Point(x: 50, y: 60)
    $0.position.type = .tween(duration: 0.5, curve: .easeInEaseOut)
    $0.opacity.target = 1
  }
  .then
  .animate(ring) { $0[.scaleXY].target = Point(x: 2, y: 2) }
  .then { time in print(String(format: "chain done at %.4f s", time)) },
  at: 0.2)

do {
  try scene.validate()
  let folder = CommandLine.arguments.dropFirst().first ?? "out/examples"
  try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  let session = RenderSession(
    scene: scene,
    outputs: [try OutputTarget(path: "\(folder)/chain.mp4"), try OutputTarget(path: "\(folder)/chain.gif")])
  _ = try session.run()
  try Renderer().render(scene.renderTree(at: 2.9)).writePNG(to: "\(folder)/chain.png")
  print("wrote \(folder)/chain.mp4, .gif, .png")
  // Rendering never runs callbacks (any frame renders alone): playing the scene's clock does.
  // The chain ends at about 3.4 s, after the 3 s the video shows: the clock plays a longer copy.
  var playback = scene
  playback.duration = 10
  if var clock = playback.animator { _ = try clock.advance(to: playback.duration) }
} catch {
  FileHandle.standardError.write(Data("chain: \(error)\n".utf8))
  exit(1)
}
