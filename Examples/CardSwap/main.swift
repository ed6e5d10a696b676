// Seed 004's card swap in Swift: the top card flies off; from its completion block the
// cards behind spring forward one slot, and from the new top card's completion block the next
// swap starts — completion-driven repeats, each at the exact (analytic) completion time.
//
//     swift run flick-example-card-swap [OUTPUT_FOLDER]   → card-swap.mp4, .gif, .png
import FlickMotion
import FlickRaster
import FlickScene
import FlickVideo
import Foundation

let colors = [Color(0x10B981), Color(0x0EA5E9), Color(0x8B5CF6), Color(0xF97316)]  // bottom … top
let size = Size(width: 320, height: 240)

/// Where the card `slot` places behind the top one sits (0 = top).
func position(slot: Int) -> Point { Point(x: 160, y: 130 - 10 * Double(slot)) }
func scale(slot: Int) -> Point { let s = 1 - 0.06 * Double(slot); return Point(x: s, y: s) }

var scene = Scene(
  size: size, fps: 30, duration: 4, backgroundColor: Color(0x0B1020),
  layers: colors.indices.map { i in
    let slot = colors.count - 1 - i
    var card = Layer(
      id: "card\(i)", bounds: Rect(x: 0, y: 0, width: 150, height: 180), position: position(slot: slot),
      backgroundColor: colors[i], cornerRadius: 18, zPosition: Double(i), shadowOpacity: 0.5, shadowRadius: 10,
      shadowOffset: Point(x: 0, y: 6))
    card.transform.scale = scale(slot: slot)
    return card
  })

/// Swap `n`: card `top` flies off to the right; when it has gone, the rest move up one slot;
/// when the new top card has arrived, swap `n + 1` starts.
@Sendable func flyOff(_ top: Int, _ next: inout LayerSchedule) {
  next.pop["card\(top)"].add(.tween(to: Point(x: 480, y: 110), duration: 0.35, curve: .easeIn), for: \.position)
  next.pop["card\(top)"].add(.tween(to: 0.5, duration: 0.35, curve: .easeIn), for: \.transform.rotation) {
    done, next in
    // The cards behind spring forward one slot, at the exact time the top card left.
    for i in 0..<top {
      let slot = top - 1 - i
      next.pop["card\(i)"].add(.spring(to: position(slot: slot)), for: \.position)
      next.pop["card\(i)"].add(.spring(to: scale(slot: slot)), for: \.transform.scale) { arrived, next in
        if i == top - 1, top - 1 > 0 { flyOff(top - 1, &next) }
      }
    }
  }
}

// A 0.4 s hold of the top card's opacity; its completion block starts the first swap.
scene.pop["card3"].add(.tween(to: 1, duration: 0.4), for: .opacity, at: 0) { _, next in flyOff(3, &next) }

do {
  try scene.validate()
  for event in scene.animator?.events(after: -1, through: scene.duration) ?? [] where event.kind == .start {
    print(String(format: "%.4f s  start  %@", event.time, event.key.description))
  }
  let folder = CommandLine.arguments.dropFirst().first ?? "out/examples"
  try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  let session = RenderSession(
    scene: scene,
    outputs: [try OutputTarget(path: "\(folder)/card-swap.mp4"), try OutputTarget(path: "\(folder)/card-swap.gif")])
  _ = try session.run()
  try Renderer().render(scene.renderTree(at: 0.2)).writePNG(to: "\(folder)/card-swap.png")
  print("wrote \(folder)/card-swap.mp4, .gif, .png")
} catch {
  FileHandle.standardError.write(Data("card-swap: \(error)\n".utf8))
  exit(1)
}
