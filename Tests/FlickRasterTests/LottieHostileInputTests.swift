import CRLottie
import FlickMotion
@testable import FlickRaster
@testable import FlickScene
import FlickExpectations
import FlickTestSupport
import Foundation
import Testing

/// Lottie files as an attacker writes them: rlottie parses the JSON again and loads image assets
/// from `folder + u + p`, so Flick hands it only the document it checked (strict JSON, images
/// embedded and re-encoded, no resource folder), and counts what the file makes rlottie build.
/// Each file is written by the test into a fresh folder beside a victim picture of a unique
/// colour outside it.
@Suite struct LottieHostileInputTests {
  static let green = TinyPNG.solid(width: 64, height: 64, rgb: (0x20, 0xC0, 0x40))

  /// A folder with `project/` (where the Lottie file goes) and `outside/victim.png`.
  struct Place {
    let root: URL
    var project: URL { root.appendingPathComponent("project") }
    var outside: URL { root.appendingPathComponent("outside") }
    init() throws {
      root = try ProcessRunner.temporaryDirectory(prefix: "flick-lottie-hostile")
      try FileManager.default.createDirectory(
        at: root.appendingPathComponent("project"), withIntermediateDirectories: true)
      try FileManager.default.createDirectory(
        at: root.appendingPathComponent("outside"), withIntermediateDirectories: true)
      try Data(HostileLottie.victimPNG).write(to: root.appendingPathComponent("outside/victim.png"))
    }
    func write(_ name: String, _ text: String) throws -> String {
      let url = project.appendingPathComponent(name)
      try Data(text.utf8).write(to: url)
      return url.path
    }
    func remove() { try? FileManager.default.removeItem(at: root) }
  }

  /// A 64 × 64 Lottie file of one image layer drawing asset `img`; `top` is spliced into the
  /// top-level object (after `assets`).
  static func imageLottie(assets: String, top: String = "") -> String {
    let ks =
      #"{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"p":{"a":0,"k":[32,32,0]},"a":{"a":0,"k":[32,32,0]},"s":{"a":0,"k":[100,100,100]}}"#
    return #"{"v":"5.7.0","fr":10,"ip":0,"op":10,"w":64,"h":64,"nm":"t","ddd":0,"assets":"# + assets + top
      + #","layers":[{"ddd":0,"ind":1,"ty":2,"nm":"img","refId":"img","ks":"# + ks
      + #","ao":0,"ip":0,"op":10,"st":0,"bm":0}]}"#
  }

  /// A 64 × 64 Lottie file of one shape layer with `shapes`.
  static func shapeLottie(_ shapes: String, assets: String = "[]", layers extra: String = "") -> String {
    let ks =
      #"{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"p":{"a":0,"k":[0,0,0]},"a":{"a":0,"k":[0,0,0]},"s":{"a":0,"k":[100,100,100]}}"#
    return #"{"v":"5.7.0","fr":10,"ip":0,"op":10,"w":64,"h":64,"assets":"# + assets
      + #","layers":[{"ty":4,"ind":1,"ks":"#
      + ks + #","ip":0,"op":10,"st":0,"shapes":["# + shapes + "]}" + extra + "]}"
  }

  static let rect =
    #"{"ty":"rc","d":1,"s":{"a":0,"k":[10,10]},"p":{"a":0,"k":[5,5]},"r":{"a":0,"k":0}},{"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}}"#

  static func repeater(_ copies: String) -> String {
    #"{"ty":"rp","c":"# + copies
      + #","o":{"a":0,"k":0},"tr":{"ty":"tr","p":{"a":0,"k":[4,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"so":{"a":0,"k":100},"eo":{"a":0,"k":100}}}"#
  }

  /// Pixels of the victim's colour in a Flick frame of the file (premultiplied BGRA).
  static func victimPixels(_ path: String) throws -> Int {
    let scene = try LottieFile.load(path: path).scene()
    let frame = try FrameRenderer().render(scene.renderTree(at: 0))
    return count(victimIn: frame.pixels)
  }

  /// Opaque pixels within 4 a channel of the victim's colour (rlottie draws an image a little
  /// darker than its pixels).
  static func count(victimIn bgra: [UInt8]) -> Int {
    let (r, g, b) = HostileLottie.victimRGB
    func near(_ x: UInt8, _ y: UInt8) -> Bool { abs(Int(x) - Int(y)) <= 4 }
    return stride(from: 0, to: bgra.count, by: 4).filter {
      bgra[$0 + 3] >= 250 && near(bgra[$0 + 2], r) && near(bgra[$0 + 1], g) && near(bgra[$0], b)
    }.count
  }

  static func refusal(_ path: String, maximumPixels: Int = LottieFile.defaultMaximumPixels) -> LottieFileError? {
    do {
      _ = try LottieFile.load(path: path, maximumPixels: maximumPixels)
      return nil
    } catch {
      return error
    }
  }

  // MARK: - Outside files

  /// What the bypasses below rely on: rlottie, given a file's own bytes and folder, draws
  /// `folder + u + p` (here the victim, through a climbing `u`).
  @Test func rlottieByItselfLoadsImagesFromTheFolderAndU() throws {
    let place = try Place()
    defer { place.remove() }
    let text = Self.imageLottie(assets: #"[{"id":"img","w":64,"h":64,"u":"/../outside/","p":"victim.png","e":0}]"#)
    let bytes = Array(text.utf8CString)
    let animation = try #require(lottie_animation_from_data(bytes, "raw-\(UUID())", place.project.path + "/"))
    defer { lottie_animation_destroy(animation) }
    var buffer = [UInt32](repeating: 0, count: 64 * 64)
    buffer.withUnsafeMutableBufferPointer { lottie_animation_render(animation, 0, $0.baseAddress, 64, 64, 64 * 4) }
    expectGreater(Self.count(victimIn: buffer.withUnsafeBytes { [UInt8]($0) }), 1000)
  }

  @Test func aDuplicateAssetsKeyIsRefusedWhereItIs() throws {
    let place = try Place()
    defer { place.remove() }
    let safe =
      #"[{"id":"img","w":64,"h":64,"u":"","p":"data:image/png;base64,"# + TinyPNG.base64(Self.green) + #"","e":1}]"#
    let victim = #"[{"id":"img","w":64,"h":64,"u":""# + place.outside.path + #"/","p":"victim.png","e":0}]"#
    let path = try place.write("dup.json", Self.imageLottie(assets: safe, top: #","assets":"# + victim))
    let error = try #require(Self.refusal(path))
    expectEqual(error.line, 1)
    #expect(error.column != nil)
    #expect(error.message.hasPrefix("assets: duplicate key (first at line 1, column "), "\(error)")
    #expect(error.description.hasPrefix("Lottie file \(path):1:"))
  }

  @Test func duplicateKeysAnywhereAndNULsInKeysAreRefused() throws {
    let place = try Place()
    defer { place.remove() }
    let deep = try place.write("deep.json", Self.shapeLottie(#"{"ty":"rc","ty":"el","d":1}"#))
    expectEqual(Self.refusal(deep)?.message.hasPrefix("layers[0].shapes[0].ty: duplicate key"), true)
    let asset = #"[{"id":"img","w":64,"h":64,"u":"","u":"/","p":"victim.png","e":1}]"#
    expectEqual(
      Self.refusal(try place.write("u.json", Self.imageLottie(assets: asset)))?.message.contains("duplicate key"), true)
    let nul = #"[{"id":"img","w":64,"h":64,"p":"x.png","p\u0000":"victim.png"}]"#
    let error = Self.refusal(try place.write("nul.json", Self.imageLottie(assets: nul)))
    expectEqual(error?.message.contains("NUL"), true, "\(String(describing: error))")
  }

  @Test func aDataNameThatIsNotABase64ImageIsRefused() throws {
    let place = try Place()
    defer { place.remove() }
    // `u: "/../.."` with `p: "data:x.png"` and `e: 0`: rlottie would load `folder/../../x`.
    try FileManager.default.createSymbolicLink(
      atPath: place.outside.appendingPathComponent("data:x.png").path, withDestinationPath: "victim.png")
    let climbing = #"[{"id":"img","w":64,"h":64,"u":"/../../outside/","p":"data:x.png","e":0}]"#
    let a = Self.refusal(try place.write("climb.json", Self.imageLottie(assets: climbing)))
    expectEqual(a?.message, "assets[0].p: an embedded image must be a base64 data: URI (data:image/png;base64,…)")
    // A symlink named `data:…` in the folder.
    try FileManager.default.createSymbolicLink(
      atPath: place.project.appendingPathComponent("data:v.png").path, withDestinationPath: "../outside/victim.png")
    for e in ["0", "1"] {
      let link = #"[{"id":"img","w":64,"h":64,"u":"","p":"data:v.png","e":"# + e + "}]"
      #expect(Self.refusal(try place.write("link\(e).json", Self.imageLottie(assets: link))) != nil)
    }
  }

  @Test func anEmbeddedImageIsDrawnFromTheFileNeverFromAFolder() throws {
    let place = try Place()
    defer { place.remove() }
    // A victim named exactly like the embedded image, where `folder + u + p` points.
    let uri = "data:image/png;base64," + TinyPNG.base64(TinyPNG.solid(width: 4, height: 4, rgb: (0x20, 0xC0, 0x40)))
    let planted = place.outside.path + "/" + uri
    try FileManager.default.createDirectory(
      atPath: (planted as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: planted, withDestinationPath: place.outside.path + "/victim.png")
    let asset = #"[{"id":"img","w":4,"h":4,"u":"/../outside/","p":""# + uri + #"","e":0}]"#
    let path = try place.write("embedded.json", Self.imageLottie(assets: asset))
    let (_, json) = try LottieFile.loadChecked(path: path, maximumPixels: LottieFile.defaultMaximumPixels)
    let given = String(decoding: json, as: UTF8.self)
    #expect(given.contains(#""u":"""#))
    #expect(given.contains(#""e":1"#))
    #expect(!given.contains("outside"))
    try expectEqual(Self.victimPixels(path), 0)
    let scene = try LottieFile.load(path: path).scene()
    let frame = try FrameRenderer().render(scene.renderTree(at: 0))
    expectGreater(frame.rgba(x: 1, y: 1).g, 150, "the embedded 4 × 4 picture is drawn")
  }

  @Test func anExternalImageIsListedAsNotDrawnAndNeverLoaded() throws {
    let place = try Place()
    defer { place.remove() }
    let asset = #"[{"id":"img","w":64,"h":64,"u":""# + place.outside.path + #"/","p":"victim.png","e":0}]"#
    let path = try place.write("external.json", Self.imageLottie(assets: asset))
    let (file, json) = try LottieFile.loadChecked(path: path, maximumPixels: LottieFile.defaultMaximumPixels)
    expectEqual(
      file.unsupportedFeatures, ["assets[0] 'img': an external image file 'victim.png' (embed images as data: URIs)"])
    #expect(!String(decoding: json, as: UTF8.self).contains(place.outside.path))
    #expect(throws: RasterError.self) { try LottieStore.check(path) }
  }

  // MARK: - Pixels

  @Test func embeddedImagesAndTheCanvasCountAgainstThePixelCap() throws {
    let place = try Place()
    defer { place.remove() }
    let bomb = "data:image/png;base64," + TinyPNG.base64(TinyPNG.header(width: 20000, height: 20000))
    let path = try place.write(
      "bomb.json", Self.imageLottie(assets: #"[{"id":"img","w":64,"h":64,"p":""# + bomb + #"","e":1}]"#))
    let error = Self.refusal(path, maximumPixels: 1_000_000)
    expectEqual(
      error?.message.hasPrefix("assets[0].p: the embedded image is 20000×20000 pixels, more than the cap of 1000000"),
      true)
    expectEqual(error?.line, 1)
    let gif = try place.write(
      "gif.json", Self.imageLottie(assets: #"[{"id":"img","p":"data:image/gif;base64,R0lGODlhAQABAAAAACw=","e":1}]"#))
    expectEqual(Self.refusal(gif)?.message.contains("not a PNG or JPEG"), true)
    let canvas = try place.write(
      "canvas.json",
      Self.shapeLottie(Self.rect).replacingOccurrences(of: #""w":64,"h":64"#, with: #""w":2000,"h":2000"#))
    expectEqual(
      Self.refusal(canvas, maximumPixels: 1_000_000)?.message.contains("the canvas is 2000×2000 = 4000000 pixels"), true
    )
    #expect(Self.refusal(canvas) == nil)
  }

  @Test func theMemoryAFileNeedsIsItsFramesAndItsImages() throws {
    let place = try Place()
    defer { place.remove() }
    let uri = "data:image/png;base64," + TinyPNG.base64(Self.green)
    let path = try place.write(
      "mem.json", Self.imageLottie(assets: #"[{"id":"img","w":64,"h":64,"p":""# + uri + #"","e":1}]"#))
    let file = try LottieFile.load(path: path)
    expectEqual(file.embeddedImagePixels, 64 * 64)
    expectEqual(file.drawnItems, 1)  // one image layer
    // Frames: 8 bytes a pixel per worker; coverage: 64 bytes a row per item per worker; images: 8 a pixel.
    expectEqual(file.estimatedBytes(workers: 3), 3 * (8 * 64 * 64 + 64 * 64 * 1) + 8 * 64 * 64)
    expectEqual(file.estimatedBytes(drawnPixels: 100, workers: 1), 800 + 64 * 10 + 8 * 64 * 64)
  }

  // MARK: - Amplification

  @Test func repeaterCopiesAreCountedAcrossNesting() throws {
    let place = try Place()
    defer { place.remove() }
    let one = try place.write("one.json", Self.shapeLottie(Self.rect + "," + Self.repeater(#"{"a":0,"k":1e7}"#)))
    let error = try #require(Self.refusal(one))
    #expect(
      error.message.hasPrefix("layers[0].shapes[2].c: a repeater of 10000000 copies makes 10000000 instances"),
      "\(error)")
    #expect(error.message.hasSuffix("at most 10000 are drawn"))
    // Four levels of 100 copies: 10⁸, refused at the second level.
    var shapes = Self.rect + "," + Self.repeater(#"{"a":0,"k":100}"#)
    for _ in 0..<3 { shapes = #"{"ty":"gr","it":["# + shapes + "]}," + Self.repeater(#"{"a":0,"k":100}"#) }
    expectEqual(
      Self.refusal(try place.write("nested.json", Self.shapeLottie(shapes)))?.message.contains("instances"), true)
    // Keyframed copies count at their largest.
    let keyed = Self.repeater(#"{"a":1,"k":[{"t":0,"s":[2]},{"t":5,"s":[50000]}]}"#)
    #expect(Self.refusal(try place.write("keyed.json", Self.shapeLottie(Self.rect + "," + keyed))) != nil)
    // Copies of what is drawn count too: 2,000 copies of 12 items pass the 20,000 items built.
    let twelve = Array(repeating: #"{"ty":"el","s":{"a":0,"k":[40,30]},"p":{"a":0,"k":[0,0]}}"#, count: 12).joined(
      separator: ",")
    let items = Self.refusal(
      try place.write("items.json", Self.shapeLottie(twelve + "," + Self.repeater(#"{"a":0,"k":2000}"#))))
    expectEqual(items?.message.contains("layers and shapes to draw"), true, "\(String(describing: items))")
    // A hundred copies are fine.
    #expect(
      Self.refusal(try place.write("fine.json", Self.shapeLottie(Self.rect + "," + Self.repeater(#"{"a":0,"k":100}"#))))
        == nil)
  }

  @Test func precompositionCyclesAndFanOutAreRefused() throws {
    let place = try Place()
    defer { place.remove() }
    let ks = #"{"o":{"a":0,"k":100},"p":{"a":0,"k":[0,0,0]}}"#
    func use(_ id: String) -> String {
      #"{"ty":0,"refId":""# + id + #"","ks":"# + ks + #","ip":0,"op":10,"st":0,"w":64,"h":64}"#
    }
    let cycle = #"[{"id":"a","layers":["# + use("b") + #"]},{"id":"b","layers":["# + use("a") + "]}]"
    let error = Self.refusal(
      try place.write("cycle.json", Self.shapeLottie(Self.rect, assets: cycle, layers: "," + use("a"))))
    expectEqual(error?.message.contains("uses itself"), true, "\(String(describing: error))")
    // Each level uses the one below 30 times: 30⁴ uses.
    var assets: [String] = [
      #"{"id":"p0","layers":[{"ty":4,"ks":"# + ks + #","ip":0,"op":10,"st":0,"shapes":["# + Self.rect + "]}]}"
    ]
    for k in 1...4 {
      assets.append(
        #"{"id":"p\#(k)","layers":["# + Array(repeating: use("p\(k - 1)"), count: 30).joined(separator: ",") + "]}")
    }
    let fan = Self.refusal(
      try place.write(
        "fan.json",
        Self.shapeLottie(Self.rect, assets: "[" + assets.joined(separator: ",") + "]", layers: "," + use("p4"))))
    let refused = fan.map { $0.message.contains("instances") || $0.message.contains("layers and shapes to draw") }
    expectEqual(refused, true, "\(String(describing: fan))")
  }

  // MARK: - The document rlottie is given

  @Test func theGivenDocumentKeepsNumbersAndStringsAsTheyRead() throws {
    let text =
      #"{ "a" : [1, -0.5e-3, 1E+2, 123456789012345678901234567890], "s": "x\"\\\/\u00e9\ud83d\ude00\n" , "t": true, "n": null}"#
    let tree = try LottieJSON.parse(Data(text.utf8))
    let again = String(decoding: tree.serialized(), as: UTF8.self)
    expectEqual(again, #"{"a":[1,-0.5e-3,1E+2,123456789012345678901234567890],"s":"x\"\\/é😀\u000a","t":true,"n":null}"#)
    let roundTrip = try JSONSerialization.jsonObject(with: tree.serialized()) as? [String: Any]
    expectEqual(roundTrip?["s"] as? String, "x\"\\/é😀\n")
  }
}
