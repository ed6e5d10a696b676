import FlickMotion
import FlickScene
import FlickTemplates

extension Flick {
  /// Options every command that reads a template accepts (values follow them):
  /// `--set NAME=VALUE` (repeatable) and `--params FILE` (repeatable; applied before `--set`).
  /// Only ``pictureOptions`` change the picture; the rest are the template caps, limits of the
  /// run that never change a pixel.
  static let templateOptions: Set<String> = Set(pictureOptions + Limits.templateCaps.map(\.option))
  /// The template options that change the picture, in the order a golden's manifest records
  /// them as its parameters (``Snapshot/parameters(_:)``): `--params`, then `--set`.
  static let pictureOptions = ["params", "set"]
  /// The checks of ``templateOptions``' numbers (the template caps), run as the arguments are parsed.
  static let templateChecks = Limits.checks(Limits.templateCaps)
  /// Flags every command that reads a template accepts.
  static let templateFlags: Set<String> = ["allow-outside-assets"]

  /// The help lines for the template options, for each command's `--help`.
  static let templateOptionsHelp = """
      --set NAME=VALUE        set a template parameter (repeatable; see 'flick info TEMPLATE')
      --params FILE           read parameter values from a JSON5 object (repeatable; --set wins)
      --allow-outside-assets  accept image and font paths outside the template's folder
    \(Limits.templateHelp)
    """

  /// The bundled templates, if they can be found.
  static var library: TemplateLibrary? { TemplateLibrary.locate() }

  /// The file a TEMPLATE argument names: a path, or the name of a bundled template.
  static func templatePath(_ argument: String) throws(CommandError) -> String {
    // An existing file is used as is: the library is located (a walk up from the executable)
    // only for a name.
    if let path = TemplateLibrary.resolve(argument, in: nil) { return path }
    let library = self.library
    if let path = TemplateLibrary.resolve(argument, in: library) { return path }
    var message = "no template file '\(quoted: argument)'"
    if !PathText.hasSeparator(argument) && !argument.hasSuffix(".json5") {
      if let library {
        message += " and no bundled template named '\(quoted: argument)'"
        if let guess = Arguments.closest(to: argument, in: library.names) {
          message += "; did you mean '\(escaped: guess)'?"
        }
        message += " (run 'flick templates' to list them)"
      } else {
        message += " (and the bundled templates were not found: set \(TemplateLibrary.environmentVariable))"
      }
    }
    throw CommandError(message: message, code: .invalidInput)
  }

  /// A SOURCE or TEMPLATE argument's file, read once (``readSource(_:_:)``).
  struct SourceFile {
    /// The file (the argument, or the bundled template it names).
    var path: String
    /// Its bytes: all of them when within the template and the Lottie caps, else its first MiB.
    var head: AssetFile.Head
  }

  /// The file `argument` names (a path, or a bundled template's name), read once through the
  /// bounded reader (``FlickScene/AssetFile``: opened non-blocking, checked on the open
  /// descriptor): whole when it is within the larger of the template cap and the Lottie cap, else
  /// its first MiB, which tells which of the two refuses it. The same bytes tell a Lottie file
  /// from a template and are what its loader decodes; nothing reads the file again.
  ///
  /// - Throws: exit 2 naming the file when it does not exist, is a folder, a FIFO or a device, or
  ///   cannot be read.
  static func readSource(_ argument: String, _ arguments: Arguments) throws(CommandError) -> SourceFile {
    let path = try templatePath(argument)
    let limits = try Limits.template(arguments)
    do {
      let cap = max(limits.maximumFileBytes, LottieFile.maximumFileSize)
      return SourceFile(path: path, head: try LottieFile.readSource(path, wholeUpTo: cap))
    } catch {
      throw CommandError(
        message: Template.readError(error.cause, path: path, limits: limits).description, code: .invalidInput)
    }
  }

  /// The commands that take a Lottie file where the others take a template: `flick --help` and
  /// the refusal of a Lottie file by the others (``lottieRefused(_:)``) name them from here.
  static let lottieCommands = ["render", "still", "info"]

  /// ``lottieCommands`` in a sentence: `render, still and info`.
  static var lottieCommandList: String {
    lottieCommands.dropLast().joined(separator: ", ") + " and " + (lottieCommands.last ?? "")
  }

  /// A Lottie file given to a command that takes templates only: exit 2, naming the commands
  /// that take it.
  static func lottieRefused(_ file: String) -> CommandError {
    CommandError.usage(
      "'\(quoted: file)' is a Lottie file, and this command takes templates only (files with \"flick\": 1 at the "
        + "top level); \(escaped: lottieCommandList) take Lottie files")
  }

  /// Loads the template named by `path` (a file or a bundled name) with the template options
  /// given in `arguments`, mapping template and parameter errors to exit code 2, and checks that
  /// it can draw (``checkDrawable(_:)``; `drawable: false` for commands that never draw).
  /// `decodeObserver` is told the canvas and the layers as soon as each is decoded. `source` is the
  /// file when ``readSource(_:_:)`` has read it already (its bytes are decoded, not read again);
  /// otherwise it is read here. A Lottie file is refused (``lottieRefused(_:)``).
  static func loadTemplate(
    _ path: String, _ arguments: Arguments, drawable: Bool = true, assetLog: AssetLog? = nil, fps: Int? = nil,
    decodeObserver: DecodeObserver? = nil, source: SourceFile? = nil, angleWarnings: Bool = false
  ) throws(CommandError) -> Template {
    try Limits.startTimeout(arguments)
    let read: SourceFile
    if let source { read = source } else { read = try readSource(path, arguments) }
    let file = read.path
    // The commands that take Lottie files ask first (loadScene, describeLottie); the others
    // would read one as a template without a format version.
    if LottieFile.isLottie(read.head, path: file) { throw lottieRefused(file) }
    let limits = try Limits.template(arguments)
    let template: Template
    do {
      var values = ParameterValues()
      for params in arguments.all("params") { try values.load(file: params) }
      for assignment in arguments.all("set") { try values.set(assignment) }
      var options = TemplateOptions(
        allowOutsideAssets: arguments.has("allow-outside-assets"), limits: limits)
      options.assetLog = assetLog
      options.fps = fps
      options.decodeObserver = decodeObserver
      options.collectsAngleWarnings = angleWarnings
      template = try Template.load(path: file, contents: read.head, parameters: values, options: options)
    } catch {
      throw CommandError(message: error.description, code: .invalidInput)
    }
    if drawable { try checkDrawable(template) }
    return template
  }
}
