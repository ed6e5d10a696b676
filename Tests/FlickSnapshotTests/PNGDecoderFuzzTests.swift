import FlickExpectations
import FlickMotion
import FlickRaster
import FlickScene
import FlickTestSupport
import Foundation
import Testing

@testable import FlickSnapshot

/// Seeded mutations of real PNG data (CRCs recomputed, so only the pixel data is wrong): the decoder
/// either decodes or refuses, never traps (bounds are checked in debug builds, where tests run).
@Suite struct PNGDecoderFuzzTests {
  /// A Cairo-written frame's IDAT payload (dynamic Huffman blocks from zlib).
  static let idat: (width: Int, height: Int, data: [UInt8]) = {
    var card = Layer(id: "card")
    card.bounds = Rect(x: 0, y: 0, width: 20, height: 12)
    card.position = Point(x: 15.5, y: 10.25)
    card.cornerRadius = 5
    card.backgroundColor = Color(red: 0.9, green: 0.3, blue: 0.1, alpha: 0.7)
    let scene = Scene(size: Size(width: 32, height: 20), duration: 1, backgroundColor: .clear, layers: [card])
    let frame = try! Renderer().render(scene.renderTree(at: 0))
    let bytes = try! PNGFile.encode(frame)
    var data: [UInt8] = []
    try! PNGFile.walk(bytes) { type, range in if type == PNGFile.idat { data += bytes[range] } }
    return (32, 20, data)
  }()

  @Test func mutatedPixelDataNeverTraps() throws {
    // FLICK_PNG_FUZZ_CASES / FLICK_PNG_FUZZ_SEED run more (or other) cases by hand.
    let environment = ProcessInfo.processInfo.environment
    let cases = environment["FLICK_PNG_FUZZ_CASES"].flatMap(Int.init) ?? 2000
    var rng = SeededGenerator(seed: environment["FLICK_PNG_FUZZ_SEED"].flatMap(UInt64.init) ?? 17)
    let (w, h, good) = Self.idat
    _ = try PNGImage(bytes: PNGDecodingTests.png(width: w, height: h, idat: good), limits: .standard)
    var decoded = 0, refused = 0
    for _ in 0..<cases {
      var data = good
      switch Int.random(in: 0..<4, using: &rng) {
      case 0:  // flip a few bytes
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
          data[Int.random(in: 0..<data.count, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng)
        }
      case 1:  // truncate
        data = Array(data.prefix(Int.random(in: 0..<data.count, using: &rng)))
      case 2:  // random bytes after a valid zlib header
        data =
          [0x78, 0x9C] + (0..<Int.random(in: 0..<300, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
      default:  // a block spliced from elsewhere in the stream
        let a = Int.random(in: 2..<data.count, using: &rng), b = Int.random(in: 2..<data.count, using: &rng)
        data.replaceSubrange(min(a, b)..<max(a, b), with: data[min(a, b)..<max(a, b)].reversed())
      }
      let dims = Int.random(in: 0..<5, using: &rng) == 0 ? (w + 1, h) : (w, h)
      do {
        _ = try PNGImage(bytes: PNGDecodingTests.png(width: dims.0, height: dims.1, idat: data), limits: .standard)
        decoded += 1
      } catch {
        #expect(!error.message.isEmpty)
        refused += 1
      }
    }
    expectEqual(decoded + refused, cases, "decoded \(decoded), refused \(refused)")
    expectGreater(refused, cases * 3 / 4, "decoded \(decoded), refused \(refused)")
  }
}
