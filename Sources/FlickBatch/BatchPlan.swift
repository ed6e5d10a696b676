import FlickMotion
import FlickRaster
import FlickScene
import FlickSnapshot
import FlickTemplates
import FlickVideo
import Foundation

/// A manifest expanded into jobs, with everything needed to render them: the runtime side of
/// a ``Plan``. `flick plan` writes ``document(planFolder:)``; `flick run` and `flick merge` build
/// the same expansion again on the worker and check it against the plan file, so a worker whose
/// templates, assets, Flick or renderer differ from the planner's refuses instead of writing
/// different bytes under the same id.
package struct BatchPlan: Sendable {
  /// One job ready to render.
  package struct Job: Sendable {
    package var spec: Plan.Job
    /// The scene with the variant's parameters (and fps) applied.
    package var scene: Scene
    package var scale: Double
    /// Frames of the scene this job renders.
    package var frames: Range<Int>
    package var options: EncodingOptions
    /// Absolute destinations.
    package var targets: [OutputTarget]
    /// The value each template parameter took for this job (given or default), by name.
    package var parameters: [String: JSON5Value] = [:]
    /// The files this job's render reads (the manifest, the template, its params or data file, its
    /// assets): an output of this job never replaces one (``FlickVideo/RenderSession/inputs``).
    package var inputs: [String] = []
  }

  /// One merge ready to run.
  package struct Merge: Sendable {
    package var spec: Plan.Merge
    /// The chunk jobs, in frame order.
    package var chunks: [Job]
    package var targets: [OutputTarget]
    package var fps: Int
    package var width: Int
    package var height: Int
    package var options: EncodingOptions
    /// Zero-padded digits of the PNG frame names (the same as a single render's).
    package var digits: Int
  }

  package var manifest: Manifest
  package var flickVersion: String
  package var renderer: RendererFingerprint
  package var jobs: [Job]
  package var merges: [Merge]
  /// Every file planning read: the manifest, each template, params and data file, and every asset
  /// the scenes draw. No job or merge writes over one (``refuseOutputsOverInputs()``).
  package var inputs: [String] = []

  /// Expands `manifest`: for each render, each variant × size is one job, or one job per
  /// `chunk` frames plus a merge when the clip is longer than `chunk`.
  ///
  /// - Parameters:
  ///   - caps: When given, every job must stay under its pixel, frame and work caps
  ///     (``checkCaps(_:frames:width:height:samples:job:render:manifest:)``; `flick plan`).
  ///   - drawable: Whether every template must pass the load-time draw check
  ///     (``checkDrawable(_:variant:render:manifest:)``; `flick plan` and `flick run`, not
  ///     `flick merge`, which draws nothing).
  /// - Throws: ``FlickTemplates/TemplateError`` for a template, parameter or manifest problem.
  package init(
    manifest: Manifest, flickVersion: String, renderer: RendererFingerprint = .current, caps: RenderLimits? = nil,
    drawable: Bool = true
  ) throws(TemplateError) {
    self.manifest = manifest
    self.flickVersion = flickVersion
    self.renderer = renderer
    var hasher = JobIdentity(flickVersion: flickVersion, renderer: renderer)
    var jobs: [Job] = []
    var merges: [Merge] = []
    var loaded = 0
    // Which render and size first planned each output name (render/variant/WxH): a second one
    // would write the same files under the same job id.
    // Keyed by the name case-folded (``Manifest/caseFolded(_:)``): outputs whose paths differ
    // only by case are one file on a file system that ignores case (macOS, Windows).
    var planned: [String: (render: Int, size: Int, base: String)] = [:]
    var inputs: Set<String> = [manifest.file]
    for (r, render) in manifest.renders.enumerated() {
      var info = stat()
      let templateBytes = stat(render.template, &info) == 0 ? Int(info.st_size) : 0
      for variant in render.variants {
        loaded += templateBytes
        guard loaded <= manifest.policy.limits.loadedTemplateBytes else {
          throw TemplateError(
            file: manifest.file, path: "renders[\(r)]", line: render.position.line, column: render.position.column,
            message:
              "planning would load templates of \(quoted: loaded) bytes or more in all (one load per variant), over "
              + "the cap of \(quoted: manifest.policy.limits.loadedTemplateBytes) bytes; use fewer variants or a smaller template"
          )
        }
        let template: Template
        do {
          template = try Template.load(
            path: render.template, parameters: variant.values,
            options: Self.templateOptions(render))
        } catch {
          guard variant.quotable else {
            throw Self.unshown(
              variant, manifest: manifest, template: render.template, problem: "does not accept these values")
          }
          // A CSV value's error points at its cell (``ParameterValues/Site``).
          throw error
        }
        if drawable { try Self.checkDrawable(template, variant: variant, render: r, manifest: manifest) }
        let scene = template.scene
        let all = 0..<scene.frameCount
        var clip = all
        if let f = render.frames {
          guard f.upperBound < scene.frameCount else {
            throw TemplateError(
              file: manifest.file, path: "renders[\(r)].frames", line: render.framesPosition?.line ?? 0,
              column: render.framesPosition?.column ?? 0,
              message: "the frames \(f.lowerBound)..\(f.upperBound) are outside \(quoted: template.name)'s "
                + "frames 0..\(scene.frameCount - 1)")
          }
          clip = f.lowerBound..<(f.upperBound + 1)
        }
        let content = hasher.content(template: render.template, scene: scene, values: template.parameterValues)
        let reads = [manifest.file, render.template] + variant.files + JobIdentity.assets(of: scene).sorted()
        inputs.formUnion(reads)
        for (s, size) in render.sizes.enumerated() {
          let scale: Double
          switch size {
          case .scale(let v): scale = v
          case .pixels(let w, let h):
            scale = OutputSize.scale(forWidth: w, canvas: scene.size)
            // The rule of --size, and a size advised that it takes (even sides for an MP4 without pad).
            guard OutputSize.accepts(width: w, height: h, canvas: scene.size) else {
              let even = !render.encoding.pad && render.formats.contains(.mp4)
              var message =
                "\(w)x\(h) does not keep \(quoted: template.name)'s "
                + "\(Int(scene.size.width))×\(Int(scene.size.height)) aspect ratio; "
              if let advised = OutputSize.advised(forWidth: w, canvas: scene.size, evenSides: even) {
                message += "use \"\(advised.width)x\(advised.height)\""
              }
              message += OutputSize.adviceNote(forWidth: w, canvas: scene.size, evenSides: even)
              throw TemplateError(
                file: manifest.file, path: "renders[\(r)].sizes[\(s)]", line: render.sizePositions[s].line,
                column: render.sizePositions[s].column, message: message)
            }
          }
          let width = Int((scene.size.width * scale).rounded()), height = Int((scene.size.height * scale).rounded())
          try Self.checkSize(
            width: width, height: height, scale: scale, of: template, formats: render.formats, render: r, size: s,
            manifest: manifest)
          try Self.checkEncoding(
            width: width, height: height, of: template, frames: clip.count, render: r, size: s, manifest: manifest)
          let base = [render.name, variant.name, "\(width)x\(height)"].joined(separator: "/")
          if let first = planned[Manifest.caseFolded(base)] {
            throw Self.collision(first: first, render: r, size: s, base: base, manifest: manifest)
          }
          planned[Manifest.caseFolded(base)] = (r, s, base)
          let digits = max(4, String(clip.upperBound - 1).count)
          let finals = render.formats.map { f in
            Plan.Output(path: f == .png ? base + "/" : base + "." + f.rawValue, format: f.rawValue)
          }
          var common = hasher.settings(
            content: content, width: width, height: height, scale: scale, fps: scene.fps, options: render.encoding)
          common.append("variant \(variant.name)")
          func job(
            kind: String, name: String, frames: Range<Int>, outputs: [Plan.Output], merge: String?
          ) throws(TemplateError) -> Job {
            guard jobs.count < manifest.policy.limits.jobs else {
              throw TemplateError(
                file: manifest.file, path: "renders[\(r)]", line: render.position.line, column: render.position.column,
                message:
                  "the manifest expands into more than \(quoted: manifest.policy.limits.jobs) jobs (the cap of a plan); "
                  + "use fewer variants, sizes or frames, a larger 'chunk', or several manifests")
            }
            if let caps {
              try Self.checkCaps(
                caps, frames: frames.count, width: width, height: height, samples: scene.motionBlur?.samples ?? 1,
                job: name, render: r, manifest: manifest)
            }
            for output in outputs { try Self.checkLinks(output, manifest: manifest) }
            let id = JobIdentity.hash(
              common + ["kind \(kind)", "frames \(frames.lowerBound) \(frames.upperBound - 1)"]
                + outputs.map { "output \($0.format) \($0.path)" })
            let spec = Plan.Job(
              index: jobs.count, id: id, kind: kind, name: name,
              template: render.template, variant: variant.name, width: width, height: height,
              frames: [frames.lowerBound, frames.upperBound - 1], outputs: outputs, merge: merge)
            return Job(
              spec: spec, scene: scene, scale: scale, frames: frames, options: render.encoding,
              targets: outputs.map { Self.target($0, root: manifest.outputRoot) },
              parameters: template.parameterValues, inputs: reads)
          }
          if render.chunk > 0 && clip.count > render.chunk {
            let starts = stride(from: clip.lowerBound, to: clip.upperBound, by: render.chunk)
            let folder = ".flick/chunks/" + base
            var chunkJobs: [Job] = []
            for (k, start) in starts.enumerated() {
              let frames = start..<min(start + render.chunk, clip.upperBound)
              var outputs: [Plan.Output] = []
              if render.formats.contains(.mp4) {
                outputs.append(Plan.Output(path: "\(folder)/\(k).mp4", format: "mp4"))
              }
              if render.formats.contains(where: { $0 != .mp4 }) {
                outputs.append(Plan.Output(path: "\(folder)/\(k).frames/%0\(digits)d.png", format: "png"))
              }
              chunkJobs.append(
                try job(
                  kind: "chunk", name: "\(base) frames \(frames.lowerBound)..\(frames.upperBound - 1)",
                  frames: frames, outputs: outputs, merge: nil))
              jobs.append(chunkJobs[chunkJobs.count - 1])
            }
            for output in finals { try Self.checkLinks(output, manifest: manifest) }
            let mergeID = JobIdentity.hash(
              common + ["kind merge"] + chunkJobs.map { "chunk \($0.spec.id)" }
                + finals.map { "output \($0.format) \($0.path)" })
            for i in chunkJobs.indices {
              chunkJobs[i].spec.merge = mergeID
              jobs[chunkJobs[i].spec.index].spec.merge = mergeID
            }
            merges.append(
              Merge(
                spec: Plan.Merge(
                  id: mergeID, name: base, frames: [clip.lowerBound, clip.upperBound - 1], outputs: finals,
                  chunks: chunkJobs.map(\.spec.id)),
                chunks: chunkJobs, targets: finals.map { Self.target($0, root: manifest.outputRoot) },
                fps: scene.fps, width: width, height: height, options: render.encoding, digits: digits))
          } else {
            jobs.append(try job(kind: "render", name: base, frames: clip, outputs: finals, merge: nil))
          }
        }
      }
    }
    self.inputs = inputs.sorted()
    self.jobs = jobs
    self.merges = merges
    try refuseOutputsOverInputs()
  }

  /// Plans the manifest a plan file names and checks that the result is the plan: the same
  /// jobs with the same ids.
  ///
  /// - Throws: ``BatchError/invalidInput(_:)`` when the manifest no longer gives this plan.
  ///
  /// The manifest must lie in the plan's folder (or below it) unless `policy` allows paths from
  /// anywhere (``Plan/manifestPath(_:planPath:in:policy:)``). It is read under `policy` like
  /// `flick plan` reads it, and its errors do not quote it (the plan file, not the user, named it:
  /// ``Manifest/load(path:policy:showingInput:)``).
  package static func load(
    plan: Plan, planPath: String, flickVersion: String, policy: ManifestPolicy = ManifestPolicy(),
    drawable: Bool = true
  ) throws(BatchError) -> BatchPlan {
    let folder = URL(fileURLWithPath: planPath).deletingLastPathComponent().standardizedFileURL.path
    let manifestPath = try Plan.manifestPath(plan.manifest, planPath: planPath, in: folder, policy: policy)
    let expanded: BatchPlan
    do {
      expanded = try BatchPlan(
        manifest: try Manifest.load(path: manifestPath, policy: policy, showingInput: false),
        flickVersion: flickVersion, drawable: drawable)
    } catch {
      throw .invalidInput(error.description)
    }
    let document = expanded.document(planFolder: folder)
    guard document != plan else { return expanded }
    var reasons: [String] = []
    if plan.flick != document.flick { reasons.append("Flick \(plan.flick) planned it, this is \(document.flick)") }
    if plan.renderer != document.renderer {
      reasons.append("the renderer differs (planned: \(plan.renderer); here: \(document.renderer))")
    }
    let here = Set(document.jobs.map(\.id))
    let changed = plan.jobs.filter { !here.contains($0.id) }
    if !changed.isEmpty {
      reasons.append(
        "\(changed.count) of \(plan.jobs.count) jobs no longer match the manifest, templates or assets (first: job \(changed[0].index) \(changed[0].name))"
      )
    }
    if plan.jobs.count != document.jobs.count {
      reasons.append("the manifest now gives \(document.jobs.count) jobs, the plan has \(plan.jobs.count)")
    }
    if reasons.isEmpty { reasons.append("the plan file differs from what its manifest gives") }
    throw .invalidInput("\(quoted: planPath) is stale: " + reasons.joined(separator: "; ") + "; run 'flick plan' again")
  }

  /// The plan file's content, with paths relative to `planFolder` where they lie inside it.
  package func document(planFolder: String) -> Plan {
    func rel(_ p: String) -> String { Plan.relative(p, to: planFolder) }
    return Plan(
      format: Plan.formatVersion, flick: flickVersion, renderer: renderer.description,
      manifest: rel(URL(fileURLWithPath: manifest.file).standardizedFileURL.path), output: rel(manifest.outputRoot),
      jobs: jobs.map { job in
        var spec = job.spec
        spec.template = rel(spec.template)
        return spec
      },
      merges: merges.map(\.spec))
  }

  /// Refuses an output whose path inside the output root goes through a symbolic link (a render,
  /// variant or chunk folder planted as a link to elsewhere): Flick never writes through a link.
  static func checkLinks(_ output: Plan.Output, manifest: Manifest) throws(TemplateError) {
    let root = manifest.outputRoot
    for path in [root + "/" + output.path, root + "/.flick/reports"] {
      guard let link = ManifestScope.link(in: path, below: root) else { continue }
      throw TemplateError(
        file: manifest.file, path: "output", line: manifest.outputPosition.line, column: manifest.outputPosition.column,
        message: "'\(quoted: link)' in the output folder is a symbolic link; "
          + "Flick does not write through links (remove it)")
    }
  }

  /// A template's file name for a message.
  /// How a render's template is loaded: its asset policy, and its frame rate (the manifest's
  /// `fps`, which replaces the template's as it is decoded).
  static func templateOptions(_ render: Manifest.Render) -> TemplateOptions {
    var options = TemplateOptions(allowOutsideAssets: render.allowOutsideAssets)
    options.fps = render.fps
    return options
  }

  static func templateName(_ path: String) -> String {
    "the template '\(quoted: URL(fileURLWithPath: path).lastPathComponent)'"
  }

  static func target(_ output: Plan.Output, root: String) -> OutputTarget {
    // The plan's outputs are made from OutputFormat values (`outputs(…)`), so the name is one.
    guard let format = OutputFormat(rawValue: output.format) else { preconditionFailure("unknown output format") }
    return OutputTarget(path: root + "/" + output.path, format: format)
  }
}
