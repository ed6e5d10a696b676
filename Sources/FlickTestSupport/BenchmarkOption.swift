/// The `--name N` options of the benchmark executables (`Benchmarks/*/main.swift`).
package enum BenchmarkOption {
  /// The positive integer after `name` on the command line, or `fallback` when it is missing or
  /// not a positive integer.
  package static func int(_ name: String, _ fallback: Int, arguments: [String] = CommandLine.arguments) -> Int {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count, let v = Int(arguments[i + 1]), v > 0 else {
      return fallback
    }
    return v
  }
}
