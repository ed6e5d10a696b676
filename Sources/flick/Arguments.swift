/// A small POSIX-style argument parser: `--flag value`, `--flag=value`, `-o value`, and `--`
/// to end options. Options are declared up front so unknown ones are usage errors.
struct Arguments {
  private(set) var positionals: [String] = []
  private var values: [String: [String]] = [:]
  private var flags: Set<String> = []

  /// Parses `args`.
  ///
  /// - Parameters:
  ///   - valued: Options that take a value (names without dashes; single letters are short options).
  ///   - flags: Options that take no value.
  init(_ args: [String], valued: Set<String>, flags allowedFlags: Set<String>) throws(CommandError) {
    var i = 0
    var onlyPositionals = false
    while i < args.count {
      let arg = args[i]
      i += 1
      if onlyPositionals || arg == "-" || !arg.hasPrefix("-") {
        positionals.append(arg)
        continue
      }
      if arg == "--" {
        onlyPositionals = true
        continue
      }
      var name = String(arg.drop(while: { $0 == "-" }))
      var inline: String?
      if let eq = name.firstIndex(of: "=") {
        inline = String(name[name.index(after: eq)...])
        name = String(name[..<eq])
      }
      let display = (arg.hasPrefix("--") ? "--" : "-") + name
      if valued.contains(name) {
        if let inline {
          values[name, default: []].append(inline)
        } else {
          guard i < args.count else { throw .usage("option \(display) needs a value") }
          values[name, default: []].append(args[i])
          i += 1
        }
      } else if allowedFlags.contains(name) {
        guard inline == nil else { throw .usage("option \(display) takes no value") }
        flags.insert(name)
      } else {
        let known = (valued.union(allowedFlags)).sorted().map { $0.count == 1 ? "-\($0)" : "--\($0)" }
        throw .usage("unknown option \(display) (known: \(known.joined(separator: ", ")))")
      }
    }
  }

  /// Every value given for `name`, in order.
  func all(_ name: String) -> [String] { values[name] ?? [] }

  /// The last value given for `name`.
  func value(_ name: String) -> String? { values[name]?.last }

  /// Whether the flag `name` was given.
  func has(_ name: String) -> Bool { flags.contains(name) }
}
