/// A template whose one frame takes a second or more to draw on any machine, the tests'
/// stand-in for a frame that never finishes (a font FreeType loops on): `layers` rotated
/// 3000² layers, each with a 200-point shadow, on a 4096² canvas (12 layers: about a second in
/// the debug build; the drawing is Cairo's and pixman's, optimised C, in every build).
package enum SlowFrameTemplate {
  package static func text(layers: Int) -> String {
    let list = (0..<layers).map {
      "{ id: 'l\($0)', size: [3000, 3000], position: [2048, 2048], backgroundColor: '#F97316', "
        + "cornerRadius: 400, shadowOpacity: 0.5, shadowRadius: 200, opacity: 0.5, "
        + "transform: { rotation: '\($0 * 7)deg' } }"
    }
    return "{ flick: 1, canvas: { width: 4096, height: 4096, fps: 10, duration: 0.5, background: '#102030' }, "
      + "layers: [" + list.joined(separator: ", ") + "] }"
  }
}
