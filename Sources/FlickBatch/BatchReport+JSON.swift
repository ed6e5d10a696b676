import FlickMotion
import Foundation

extension BatchReport {
  /// The report as JSON: pretty-printed (two spaces a level), keys sorted, absent values left
  /// out, one object per job, ending with a newline; ``BatchReport``'s `Codable` reads it back.
  ///
  /// Written by hand rather than by `JSONEncoder`: `flick run` writes its report before every
  /// job it renders, each time with every job of the run, and Foundation's encoder made that the
  /// run's largest cost past a few hundred jobs (44 % of the CPU of 500 one-frame jobs). Each
  /// job's text is kept (``fragment(_:)``) and reused while the job's entry is unchanged.
  package func encoded() -> Data {
    var out = "{\n"
    var fields: [(String, String)] = [
      ("command", JSONText.quoted(command)), ("exitCode", "\(exitCode)"), ("failed", "\(failed)"),
      ("jobs", jobs.isEmpty ? "[]" : "[\n" + jobs.map(Self.fragment).joined(separator: ",\n") + "\n  ]"),
      ("notRun", "\(notRun)"),
    ]
    if let owner {
      fields.append(
        (
          "owner",
          "{\n    \"host\" : \(JSONText.quoted(owner.host)),\n    \"pid\" : \(owner.pid),\n"
            + "    \"started\" : \(owner.started)\n  }"
        ))
    }
    fields += [("plan", JSONText.quoted(plan)), ("rendered", "\(rendered)"), ("seconds", Self.number(seconds))]
    if let shard { fields.append(("shard", JSONText.quoted(shard))) }
    fields.append(("skipped", "\(skipped)"))
    out += fields.map { "  \"\($0.0)\" : \($0.1)" }.joined(separator: ",\n")
    return Data((out + "\n}\n").utf8)
  }

  /// One job's object, indented as an element of `jobs`; kept while the entry is unchanged.
  static func fragment(_ entry: Entry) -> String {
    if let kept = fragments.withLock({ $0[entry] }) { return kept }
    var fields: [(String, String)] = []
    if let attempts = entry.attempts { fields.append(("attempts", "\(attempts)")) }
    if let error = entry.error { fields.append(("error", JSONText.quoted(error))) }
    if let exitCode = entry.exitCode { fields.append(("exitCode", "\(exitCode)")) }
    fields += [
      ("id", JSONText.quoted(entry.id)), ("index", "\(entry.index)"), ("name", JSONText.quoted(entry.name)),
      (
        "outputs",
        entry.outputs.isEmpty
          ? "[]" : "[\n" + entry.outputs.map { "        " + JSONText.quoted($0) }.joined(separator: ",\n") + "\n      ]"
      ),
      ("seconds", number(entry.seconds)), ("status", JSONText.quoted(entry.status.rawValue)),
    ]
    let text = "    {\n" + fields.map { "      \"\($0.0)\" : \($0.1)" }.joined(separator: ",\n") + "\n    }"
    fragments.withLock { kept in
      // A run's entries change a few at a time; a bound keeps a long-lived process small.
      if kept.count >= 100_000 { kept.removeAll() }
      kept[entry] = text
    }
    return text
  }

  /// The text of each entry written so far.
  private static let fragments = Locked<[Entry: String]>([:])

  /// A finite number as Swift prints it (the shortest text that reads back the same), `null` for
  /// anything else (JSON has no NaN or infinity): ``JSONText/number(_:significantDigits:)``'s
  /// rule, so an unknown time is never written as a time of 0.
  static func number(_ value: Double) -> String { JSONText.number(value) }
}
