import FlickScene
@testable import FlickTemplates
import FlickExpectations
import Foundation
import Testing

/// The top-level `motionBlur` key.
@Suite struct MotionBlurTemplateTests {
  static func decode(_ blur: String) throws(TemplateError) -> Scene {
    try Template.decode(
      "{ flick: 1, canvas: { width: 10, height: 10, duration: 1 }\(blur.isEmpty ? "" : ", motionBlur: \(blur)") }",
      file: "t.json5"
    ).scene
  }

  @Test func decodes() throws {
    #expect(try Self.decode("").motionBlur == nil)
    try expectEqual(Self.decode("true").motionBlur, MotionBlur(shutterAngle: 180, samples: 16))
    #expect(try Self.decode("false").motionBlur == nil)
    try expectEqual(Self.decode("{ shutterAngle: 90 }").motionBlur, MotionBlur(shutterAngle: 90, samples: 16))
    try expectEqual(Self.decode("{ samples: 8 }").motionBlur, MotionBlur(shutterAngle: 180, samples: 8))
  }

  @Test func rejectsOutOfRangeAndUnknownKeys() {
    func message(_ blur: String) -> String {
      do {
        _ = try Self.decode(blur)
        return ""
      } catch {
        return error.description
      }
    }
    #expect(message("{ shutterAngle: 0 }").contains("motionBlur.shutterAngle"))
    #expect(message("{ samples: 1.5 }").contains("whole number in 2…64"))
    #expect(message("{ shutter: 180 }").contains("unknown key 'shutter'"))
  }
}
