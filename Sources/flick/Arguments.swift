import FlickMotion
/// A small POSIX-style argument parser, declared up front so unknown options are usage errors.
///
/// Accepted forms: `--name value`, `--name=value`, `-o value`, `-ovalue`, bundled short flags
/// (`-qh`), `--` (everything after it is positional, even `-x`), and `-` (a positional, by
/// convention standard input or output). An unknown option gets a did-you-mean suggestion.
struct Arguments {
  private(set) var positionals: [String] = []
  private var values: [String: [String]] = [:]
  private var flags: Set<String> = []

  /// The options every command documents as repeatable: each value counts (`--set a=1 --set
  /// b=2`). Any other valued option given twice is a usage error, not last-wins.
  static let repeatable: Set<String> = ["set", "params"]

  /// A check of one value of an option, run as the arguments are parsed, before the command
  /// reads anything else: a number option's grammar and range (``NumberRule``), so a bad number
  /// is refused (exit 2) whatever else is wrong or missing.
  typealias Check = @Sendable (String) throws(CommandError) -> Void

  /// Names of one option: a second value under any of them is the option repeated.
  private static let aliases: [String: String] = ["o": "output", "out": "output"]

  /// Parses `args`.
  ///
  /// - Parameters:
  ///   - valued: Options that take a value (names without dashes; single letters are short options).
  ///   - flags: Options that take no value.
  ///   - repeatable: The valued options that may be given more than once (``repeatable`` unless
  ///     the command takes more, as `render` takes several `-o`).
  ///   - checks: The check of each option's value, by name (those options take a value too).
  init(
    _ args: [String], valued declared: Set<String>, flags allowedFlags: Set<String>,
    repeatable: Set<String> = Arguments.repeatable, checks: [String: Check] = [:]
  )
    throws(CommandError)
  {
    let valued = declared.union(checks.keys)
    func usage(_ message: String) -> CommandError {
      CommandError.usage(message)
    }
    func unknown(_ written: String, _ name: String) -> CommandError {
      let known = valued.union(allowedFlags).filter { $0.count > 1 }.sorted()
      var message = "unknown option \(quoted: written)"
      if let guess = Self.closest(to: name, in: known) { message += "; did you mean --\(escaped: guess)?" }
      return usage(message)
    }
    var i = 0
    var onlyPositionals = false
    /// How each single-valued option was first written, by its canonical name.
    var given: [String: String] = [:]
    /// Records a value of `name` written as `written`; a single-valued option given again is refused.
    func add(_ name: String, _ value: String, written: String) throws(CommandError) {
      if !repeatable.contains(name) {
        let canonical = Self.aliases[name] ?? name
        if let first = given[canonical] {
          throw usage(
            "option \(quoted: written) is given more than once (also as \(quoted: first)); it takes one value")
        }
        given[canonical] = written
      }
      if let check = checks[name] { try check(value) }
      values[name, default: []].append(value)
    }
    /// Takes the value of option `name` (written as `written`) from the next argument.
    func nextValue(_ written: String) throws(CommandError) -> String {
      guard i < args.count else { throw usage("option \(quoted: written) needs a value") }
      let v = args[i]
      if v.hasPrefix("--") && v.count > 2 {
        throw usage(
          "option \(quoted: written) needs a value, found the option \(v) (write "
            + "\(quoted: written)=\(v) if you mean it)")
      }
      i += 1
      return v
    }
    while i < args.count {
      let arg = args[i]
      i += 1
      if onlyPositionals || arg == "-" || !arg.hasPrefix("-") {
        positionals.append(arg)
      } else if arg == "--" {
        onlyPositionals = true
      } else if arg.hasPrefix("--") {
        var name = String(arg.dropFirst(2))
        var inline: String?
        if let eq = name.firstIndex(of: "=") {
          inline = String(name[name.index(after: eq)...])
          name = String(name[..<eq])
        }
        if valued.contains(name) {
          let v: String
          if let inline { v = inline } else { v = try nextValue("--\(name)") }
          try add(name, v, written: "--\(name)")
        } else if allowedFlags.contains(name) {
          guard inline == nil else { throw usage("option --\(quoted: name) takes no value") }
          flags.insert(name)
        } else {
          throw unknown("--\(name)", name)
        }
      } else {
        // A lone dash before a long name (-output) is a common slip: suggest the long form.
        let long = String(arg.dropFirst().prefix { $0 != "=" })
        if long.count > 1 && (valued.contains(long) || allowedFlags.contains(long)) {
          throw usage("unknown option \(quoted: arg); long options take two dashes: -\(quoted: arg)")
        }
        // Short options: -o VALUE, -oVALUE, -o=VALUE, or bundled flags -qh.
        var rest = Substring(arg.dropFirst())
        while let c = rest.first {
          let name = String(c)
          rest = rest.dropFirst()
          if valued.contains(name) {
            if rest.hasPrefix("=") { rest = rest.dropFirst() }
            let v: String
            if rest.isEmpty { v = try nextValue("-\(name)") } else { v = String(rest) }
            try add(name, v, written: "-\(name)")
            break
          } else if allowedFlags.contains(name) {
            flags.insert(name)
          } else if rest.isEmpty && arg.count == 2 {
            throw unknown(arg, name)
          } else {
            throw unknown(arg, long)
          }
        }
      }
    }
  }

  /// Every value given for `name`, in order.
  func all(_ name: String) -> [String] { values[name] ?? [] }

  /// The value given for `name` (a single-valued option is given at most once).
  func value(_ name: String) -> String? { values[name]?.last }

  /// Whether the flag `name` was given.
  func has(_ name: String) -> Bool { flags.contains(name) }

  /// The option closest to `word`, if close enough to be a typo; a prefix of a longer option
  /// (`--allow` for `--allow-outside-assets`) is also a likely slip.
  static func closest(to word: String, in options: [String]) -> String? {
    Suggestion.closest(to: word, in: options) ?? options.first { $0.hasPrefix(word) && word.count >= 3 }
  }
}
