import FlickMotion
import Foundation

/// The image assets of a Lottie file, checked and rewritten so rlottie loads no file.
///
/// rlottie 0.1 loads an image asset (any asset with a `p`) from `folder + u + p` unless `e` is
/// non-zero and `p` starts with `data:`, in which case it decodes the base64 after the first
/// comma with stb_image (any format stb reads, sized by its own header). So every image asset
/// Flick hands over is rewritten to `u: ""`, `e: 1`: an embedded one (`data:…;base64,…`) is
/// decoded here, must be a PNG or JPEG whose header gives at most the pixel cap, and is written
/// back as canonical base64 of the same bytes (so rlottie's lenient decoder reads exactly the
/// bytes checked); any other `p` (a file name) stays as it is, which rlottie then ignores
/// (`e: 1` without `data:`), and is listed as unsupported (``LottieFile/unsupportedFeatures``),
/// so a render refuses the file and `flick info` says so.
enum LottieImageAssets {
  /// The rewritten document and the pixels of its embedded images together.
  struct Result {
    var document: LottieJSON
    var pixels: Int
  }

  static func rewrite(
    _ document: LottieJSON, bytes: [UInt8], path: String, maximumPixels: Int
  ) throws(LottieFileError) -> Result {
    guard var rootMembers = document.members, let index = rootMembers.firstIndex(where: { $0.key == "assets" }) else {
      return Result(document: document, pixels: 0)
    }
    func fail(_ offset: Int, _ place: String, _ message: String) -> LottieFileError {
      let (line, column) = LottieJSON.location(of: offset, in: bytes)
      return LottieFileError(path: path, line: line, column: column, message: "\(escaped: place): \(escaped: message)")
    }
    guard let assets = rootMembers[index].value.items else {
      throw fail(rootMembers[index].offset, "assets", "must be an array of assets")
    }
    var pixels = 0
    var rewritten: [LottieJSON] = []
    for (i, asset) in assets.enumerated() {
      guard var members = asset.members else {
        throw fail(rootMembers[index].offset, "assets[\(i)]", "an asset must be an object")
      }
      guard let p = members.firstIndex(where: { $0.key == "p" }) else {
        rewritten.append(asset)
        continue
      }
      let place = "assets[\(i)].p"
      guard let written = members[p].value.text else {
        throw fail(members[p].offset, place, "an image asset's 'p' must be a string")
      }
      if written.hasPrefix("data:") {
        let image: ImageHeader.Embedded
        do {
          image = try ImageHeader.embedded(written, maximumPixels: maximumPixels)
        } catch {
          throw fail(members[p].offset, place, error.reason)
        }
        members[p].value = .string(image.canonicalURI)
        pixels += image.header.width * image.header.height
      }
      set(&members, "u", .string(""))
      set(&members, "e", .number("1"))
      rewritten.append(.object(members))
    }
    rootMembers[index].value = .array(rewritten)
    return Result(document: .object(rootMembers), pixels: pixels)
  }

  private static func set(_ members: inout [LottieJSON.Member], _ key: String, _ value: LottieJSON) {
    if let k = members.firstIndex(where: { $0.key == key }) {
      members[k].value = value
    } else {
      members.append(LottieJSON.Member(key: key, value: value, offset: 0))
    }
  }
}
