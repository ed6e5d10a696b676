import FlickExpectations
import FlickScene
import FlickTestSupport
import Foundation
import Testing

@testable import FlickTemplates

/// A params file (`--params`) and a template file are read once through the bounded reader
/// (``FlickScene/AssetFile``): opened non-blocking (a FIFO is refused, not waited on), checked
/// with `fstat` on the open descriptor (a regular file within the cap), read once. A params file
/// had no cap at all (a 3 GiB file was read whole), and a FIFO in place of either hung the load.
@Suite struct BoundedFileReadTests {
  /// A fresh folder with a sparse file of `bytes` bytes (`big.json5`) and a FIFO (`pipe.json5`).
  static func folder(bigBytes bytes: Int) throws -> (folder: String, big: String, fifo: String) {
    let folder = try FixturePaths.temporaryFolder().path
    let big = folder + "/big.json5"
    try FIFOGuard.sparseFile(big, bytes: bytes)
    let fifo = folder + "/pipe.json5"
    try FIFOGuard.make(fifo)
    return (folder, big, fifo)
  }

  @Test func aParamsFileOverTheCapIsRefusedBeforeItIsRead() throws {
    let (folder, big, _) = try Self.folder(bigBytes: ParameterValues.maximumFileBytes + 1)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let started = Date()
    var values = ParameterValues()
    let message = thrownDescription { () throws(TemplateError) in try values.load(file: big) }
    expectEqual(
      message,
      "\(big): the params file is 16777217 bytes, more than the 16 MiB a params file may be")
    #expect(Date().timeIntervalSince(started) < 5, "refused from fstat, not after reading")
  }

  @Test func aFIFOInPlaceOfAParamsFileIsRefusedNotWaitedOn() throws {
    let (folder, _, fifo) = try Self.folder(bigBytes: 0)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let run = FIFOGuard.ends(fifo: fifo) {
      var values = ParameterValues()
      try values.load(file: fifo)
    }
    #expect(run.ended, "the params file load waited on the FIFO")
    #expect(run.threw)
    var values = ParameterValues()
    let message = run.ended ? thrownDescription { () throws(TemplateError) in try values.load(file: fifo) } : nil
    expectEqual(message, "\(fifo): is not a regular file (a FIFO or a device), not a params file")
  }

  @Test func aFolderOrNothingInPlaceOfAParamsFileKeepsItsMessage() throws {
    let folder = try FixturePaths.temporaryFolder().path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var values = ParameterValues()
    expectEqual(
      thrownDescription { () throws(TemplateError) in try values.load(file: folder) },
      "\(folder): is a folder, not a params file")
    expectEqual(
      thrownDescription { () throws(TemplateError) in try values.load(file: folder + "/none.json5") },
      "\(folder)/none.json5: no such params file")
  }

  @Test func aTemplateOverTheCapIsRefusedWithTheCapAndHowToRaiseIt() throws {
    let (folder, big, _) = try Self.folder(bigBytes: 4097)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let options = TemplateOptions(limits: TemplateLimits(maximumFileBytes: 4096))
    let message = thrownDescription { () throws(TemplateError) in
      _ = try Template.load(path: big, parameters: ParameterValues(), options: options)
    }
    expectEqual(
      message,
      "\(big): the file is 4097 bytes, more than the 4096 bytes a template may be "
        + "(--max-template-bytes or FLICK_MAX_TEMPLATE_BYTES raises the cap)")
  }

  @Test func aFIFOInPlaceOfATemplateIsRefusedNotWaitedOn() throws {
    let (folder, _, fifo) = try Self.folder(bigBytes: 0)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let run = FIFOGuard.ends(fifo: fifo) { _ = try Template.load(path: fifo) }
    #expect(run.ended, "the template load waited on the FIFO")
    #expect(run.threw)
    let message = run.ended ? thrownDescription { () throws(TemplateError) in _ = try Template.load(path: fifo) } : nil
    expectEqual(message, "\(fifo): is not a regular file (a FIFO or a device), not a template file")
  }

  @Test func aFolderOrNothingInPlaceOfATemplateKeepsItsMessage() throws {
    let folder = try FixturePaths.temporaryFolder().path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    expectEqual(
      thrownDescription { () throws(TemplateError) in _ = try Template.load(path: folder) },
      "\(folder): is a folder, not a template file")
    expectEqual(
      thrownDescription { () throws(TemplateError) in _ = try Template.load(path: folder + "/none.json5") },
      "\(folder)/none.json5: no such file")
  }

  @Test func aTemplateReadOnceIsLoadedFromThoseBytes() throws {
    // A file over the cap is refused by the size its reader saw, whatever the bytes handed over.
    let options = TemplateOptions(limits: TemplateLimits(maximumFileBytes: 4096))
    let grown = AssetFile.Head(bytes: Array("{ flick: 1 }".utf8), size: 5000)
    let message = thrownDescription { () throws(TemplateError) in
      _ = try Template.load(path: "t.json5", contents: grown, parameters: ParameterValues(), options: options)
    }
    #expect(message?.contains("the file is 5000 bytes, more than the 4096") == true, "\(message ?? "")")
  }
}
