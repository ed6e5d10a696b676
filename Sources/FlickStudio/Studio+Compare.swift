import FlickMotion
import FlickSnapshot
import Foundation

extension Studio {
  /// `GET /api/compare?report=REL` (a `flick verify --report` folder) or `?goldens=REL` (a
  /// `flick snapshot` folder): the frames with their status, pixels and images.
  func compare(_ request: HTTPRequest) -> HTTPResponse {
    switch compareSource(request) {
    case .refused(let response): return response
    case .report(let folder, let summary):
      let frames = summary.frames.map { frame in
        CompareBody.Frame(
          name: frame.name, time: frame.seconds, label: frame.time, status: frame.status,
          pixels: frame.differingPixels, message: frame.message,
          images: frame.artifacts.keys.filter { Self.imageKinds.contains($0) }.sorted())
      }
      return StudioResponse.json(CompareBody(source: workspace.relative(folder), kind: "report", frames: frames))
    case .goldens(let folder, let manifest):
      let frames = manifest.frames.map { entry in
        CompareBody.Frame(
          name: (entry.file as NSString).deletingPathExtension, time: entry.seconds, label: entry.time.description,
          status: "golden", pixels: nil, message: "", images: ["golden"])
      }
      return StudioResponse.json(CompareBody(source: workspace.relative(folder), kind: "goldens", frames: frames))
    }
  }

  /// The image kinds a report can hold per frame.
  static let imageKinds: Set<String> = ["golden", "actual", "diff"]

  /// `GET /api/compare/image?report=REL&frame=NAME&kind=golden|actual|diff` (or `goldens=` with
  /// `kind=golden`): the PNG, read only inside its folder.
  func compareImage(_ request: HTTPRequest) -> HTTPResponse {
    guard let frame = request.argument("frame"), let kind = request.argument("kind"), Self.imageKinds.contains(kind)
    else { return StudioResponse.error(400, "compare/image needs frame=NAME and kind=golden|actual|diff") }
    let folder: String
    let relative: String
    switch compareSource(request) {
    case .refused(let response): return response
    case .report(let f, let summary):
      guard let entry = summary.frames.first(where: { $0.name == frame }), let artifact = entry.artifacts[kind] else {
        return StudioResponse.error(404, "the report has no \(quoted: kind) image for \(quoted: frame)")
      }
      (folder, relative) = (f, artifact)
    case .goldens(let f, let manifest):
      guard kind == "golden",
        let entry = manifest.frames.first(where: { ($0.file as NSString).deletingPathExtension == frame })
      else { return StudioResponse.error(404, "the goldens have no \(quoted: kind) image for \(quoted: frame)") }
      (folder, relative) = (f, entry.file)
    }
    let path: String
    do throws(SnapshotError) {
      path = try ContainedPath.resolve(relative, in: folder, what: "image", source: "the comparison")
    } catch {
      return StudioResponse.error(403, error.description)
    }
    // Read inside the folder and bounded, as accept reads it (the workspace's policy first).
    guard case .success = workspace.resolve(workspace.relative(path)),
      let data = try? ContainedPath.read(
        relative, in: folder, what: "image", source: "the comparison", maximumBytes: DecodeLimits.standard.maxFileBytes)
    else { return StudioResponse.error(404, "cannot read \(quoted: relative)") }
    return StudioResponse.raw(contentType: "image/png", data: data)
  }

  /// `POST /api/accept` `{"report": REL, "goldens": REL, "frames": [names]?}`: `flick accept`.
  ///
  /// The same ``FlickSnapshot/ReportAcceptance`` as `flick accept REPORT --against GOLDENS
  /// [--frame NAME]…`: every failed frame of the report, or only those `frames` names (each must
  /// be a failed frame: 409 otherwise). Only the accepted goldens and their manifest entries
  /// change, written atomically.
  func accept(_ request: HTTPRequest) -> HTTPResponse {
    guard let body = try? JSONDecoder().decode(AcceptRequest.self, from: request.body) else {
      return StudioResponse.error(400, "the body must be {\"report\": REL, \"goldens\": REL, \"frames\": [NAME, …]}")
    }
    let report: String
    let goldens: String
    switch (workspace.resolve(body.report), workspace.resolve(body.goldens)) {
    case (.failure(let refusal), _), (_, .failure(let refusal)): return refusal.response
    case (.success(let r), .success(let g)): (report, goldens) = (r, g)
    }
    var plan: ReportAcceptance
    do throws(SnapshotError) {
      plan = try ReportAcceptance(report: report, goldens: goldens, caps: options.capOptions)
    } catch {
      return StudioResponse.error(error.isInvalidInput ? 400 : 500, error.description)
    }
    if let wanted = body.frames {
      guard !wanted.isEmpty else {
        return StudioResponse.error(400, "\"frames\" is empty: name the failed frames to accept, or leave it out")
      }
      do throws(SnapshotError) {
        plan = try plan.selecting(wanted)
      } catch {
        return StudioResponse.error(409, error.description)
      }
    }
    return apply(plan)
  }

  /// Writes an accepted plan's goldens: `{"accepted", "skipped"}`.
  private func apply(_ plan: ReportAcceptance) -> HTTPResponse {
    do throws(SnapshotError) {
      try plan.apply()
    } catch {
      return StudioResponse.error(500, error.description)
    }
    return StudioResponse.json(AcceptBody(accepted: plan.accepted.map(\.name), skipped: plan.skipped.map(\.name)))
  }

  /// What a compare request names: a report folder with its summary, or a goldens folder.
  enum CompareSource {
    case report(String, ReportSummary)
    case goldens(String, SnapshotManifest)
    /// Refused or missing: the answer.
    case refused(HTTPResponse)
  }

  func compareSource(_ request: HTTPRequest) -> CompareSource {
    if let relative = request.argument("report") {
      var folder: String
      switch workspace.resolve(relative) {
      case .failure(let refusal): return .refused(refusal.response)
      case .success(let path): folder = path
      }
      if folder.hasSuffix("/summary.json") { folder = (folder as NSString).deletingLastPathComponent }
      guard
        let data = try? ContainedPath.read(
          "summary.json", in: folder, what: "summary", source: folder, maximumBytes: ContainedPath.maximumTextBytes),
        let summary = try? JSONDecoder().decode(ReportSummary.self, from: data)
      else {
        return .refused(StudioResponse.error(404, "no flick verify report (summary.json) in \(quoted: relative)"))
      }
      return .report(folder, summary)
    }
    if let relative = request.argument("goldens") {
      switch workspace.resolve(relative) {
      case .failure(let refusal): return .refused(refusal.response)
      case .success(let folder):
        guard let manifest = try? SnapshotManifest.read(from: folder) else {
          return .refused(StudioResponse.error(404, "no flick snapshot manifest.json in \(quoted: relative)"))
        }
        return .goldens(folder, manifest)
      }
    }
    return .refused(StudioResponse.error(400, "compare needs report=REL or goldens=REL"))
  }
}

/// The fields of a `flick verify` report's `summary.json` the studio shows.
struct ReportSummary: Decodable {
  struct Frame: Decodable {
    var name: String
    var time: String
    var seconds: Double?
    var status: String
    var differingPixels: Int?
    var message: String
    var artifacts: [String: String]
  }
  var frames: [Frame]
}

struct CompareBody: Encodable {
  struct Frame: Encodable {
    var name: String
    var time: Double?
    var label: String
    var status: String
    var pixels: Int?
    var message: String
    var images: [String]
  }
  var source: String
  var kind: String
  var frames: [Frame]
}

struct AcceptRequest: Decodable {
  var report: String
  var goldens: String
  var frames: [String]?
}

struct AcceptBody: Encodable {
  var accepted: [String]
  var skipped: [String]
}
