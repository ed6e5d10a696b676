import FlickMotion
import FlickScene
import FlickTemplates
import Foundation

extension Studio {
  /// `GET /api/params`: the parameter values in effect.
  func parameters(_ session: TemplateSession) -> HTTPResponse {
    guard let template = session.snapshot.template else {
      return StudioResponse.json(ParamsBody(values: [:]))
    }
    return StudioResponse.json(ParamsBody(values: template.parameterValues.mapValues(JSONValue.init)))
  }

  /// `POST /api/params` `{"values": {name: value}}`: validated exactly like `--set` (400 with
  /// the command's message otherwise), then the template recompiles and a `reload` follows.
  func setParameters(_ request: HTTPRequest, _ session: TemplateSession) -> HTTPResponse {
    guard let body = try? JSONDecoder().decode(ParamsRequest.self, from: request.body) else {
      return StudioResponse.error(400, "the body must be {\"values\": {NAME: VALUE, …}}")
    }
    let assignments = body.values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.assignmentText)" }
    do throws(TemplateError) {
      try session.setParameters(assignments)
    } catch {
      return StudioResponse.json(TemplateErrorBody(status: 400, diagnostic: diagnostic(error)), status: 400)
    }
    announce(session, error: nil)
    return parameters(session)
  }

  /// `POST /api/params/save` `{"path": "rel.json5", "overwrite": false}`: writes the values in
  /// effect as a params file `--params` reads; confined to the folder, never over a template,
  /// 409 when the file exists and `overwrite` is not true.
  func saveParameters(_ request: HTTPRequest, _ session: TemplateSession) -> HTTPResponse {
    guard let body = try? JSONDecoder().decode(SaveRequest.self, from: request.body) else {
      return StudioResponse.error(400, "the body must be {\"path\": \"NAME.json5\"}")
    }
    let path: String
    switch workspace.destination(body.path) {
    case .success(let p): path = p
    case .failure(let refusal): return refusal.response
    }
    guard path.hasSuffix(".json5") || path.hasSuffix(".json") else {
      return StudioResponse.error(400, "a params file ends in .json5 or .json")
    }
    if FileManager.default.fileExists(atPath: path) {
      if isTemplate(path) {
        return StudioResponse.error(409, "\(quoted: body.path) is a template; it is never overwritten")
      }
      guard body.overwrite == true else {
        return StudioResponse.error(409, "\(quoted: body.path) exists; send \"overwrite\": true to replace it")
      }
    }
    guard let template = session.snapshot.template else {
      return StudioResponse.error(409, "the template does not compile; there are no values to save")
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    let values = template.parameterValues.mapValues(JSONValue.init)
    guard var data = try? encoder.encode(values) else { return StudioResponse.error(500, "cannot encode the values") }
    data.append(0x0A)
    do {
      try AtomicDestination.write(data, to: path)
    } catch {
      return StudioResponse.error(500, "cannot write \(quoted: body.path): \(escaped: MessageText.reason(error))")
    }
    return StudioResponse.json(SavedBody(path: workspace.relative(path), bytes: data.count))
  }

  /// Whether the file at `path` is a template (a JSON5 object with a `flick` member), read once
  /// through the bounded reader within the template cap (a FIFO or a larger file is not one).
  func isTemplate(_ path: String) -> Bool {
    guard
      let bytes = try? AssetFile.read(path, maximumBytes: options.templateLimits.maximumFileBytes, kind: "a template"),
      let text = String(bytes: bytes, encoding: .utf8),
      let root = try? JSON5Parser.parse(text), case .object(let members) = root.kind
    else { return false }
    return members.contains { $0.key == "flick" }
  }
}

struct ParamsBody: Encodable {
  var values: [String: JSONValue]
}

struct ParamsRequest: Decodable {
  var values: [String: ReceivedValue]
}

struct SaveRequest: Decodable {
  var path: String
  var overwrite: Bool?
}

struct SavedBody: Encodable {
  var path: String
  var bytes: Int
}
