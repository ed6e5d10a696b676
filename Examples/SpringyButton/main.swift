// A springy button, Pop style: pressed at 0.5 s it springs down to 90 % and darkens; released
// at 0.8 s it springs back with a bouncy spring that keeps the velocity it had.
//
//     swift run flick-example-springy-button [OUTPUT_FOLDER]   → springy-button.mp4, .gif, .png
import FlickMotion
import FlickRaster
import FlickScene
import FlickVideo
import Foundation

var scene = Scene(
  size: Size(width: 240, height: 160), fps: 30, duration: 2, backgroundColor: .white,
  layers: [
    Layer(
      id: "button", bounds: Rect(x: 0, y: 0, width: 140, height: 56), position: Point(x: 120, y: 80),
      backgroundColor: Color(0x0A84FF), cornerRadius: 28)
  ])

let pressed = Point(x: 0.9, y: 0.9)
scene.pop["button"].add(.spring(to: pressed, .pop(bounciness: 2, speed: 20)), for: \.transform.scale, at: 0.5)
scene.pop["button"].add(.tween(to: Color(0x0060DF), duration: 0.1), for: .backgroundColor, at: 0.5)
scene.pop["button"].add(
  .spring(to: Point(x: 1, y: 1), .pop(bounciness: 14, speed: 10)), for: \.transform.scale, at: 0.8)
scene.pop["button"].add(.tween(to: Color(0x0A84FF), duration: 0.25), for: .backgroundColor, at: 0.8)

do {
  try scene.validate()
  let folder = CommandLine.arguments.dropFirst().first ?? "out/examples"
  try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  let session = RenderSession(
    scene: scene,
    outputs: [
      try OutputTarget(path: "\(folder)/springy-button.mp4"), try OutputTarget(path: "\(folder)/springy-button.gif"),
    ])
  _ = try session.run()
  try Renderer().render(scene.renderTree(at: 0.75)).writePNG(to: "\(folder)/springy-button.png")
  print("wrote \(folder)/springy-button.mp4, .gif, .png")
} catch {
  FileHandle.standardError.write(Data("springy-button: \(error)\n".utf8))
  exit(1)
}
