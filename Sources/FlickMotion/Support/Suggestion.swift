/// "Did you mean …?" suggestions for misspelt names: options, keys, layer ids, curve names.
///
/// Shared by the spec parser, the template decoder and the command line so every error in Flick
/// suggests names the same way.
package enum Suggestion {
  /// Names from other tools (SwiftUI, CSS, After Effects, Pop) for Flick's documented names,
  /// keyed by their ``normalized(_:)`` form: a suggestion names the documented one.
  package static let aliases: [String: String] = [
    "easeinout": "easeInEaseOut", "ease": "default", "scale": "scaleXY", "translation": "translationXY",
    "translate": "translationXY", "alpha": "opacity", "backgroundcolour": "backgroundColor", "rotate": "rotation",
    "rotationz": "rotation",
  ]

  /// `word` lowercased without `-`, `_` and spaces: `ease-in-out` and `EaseInOut` are the same.
  package static func normalized(_ word: String) -> String {
    String(word.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " })
  }

  /// The candidate closest to `word`: one that differs only in case and separators
  /// (`ease-in` → `easeIn`), else the documented name of a known alias (`easeInOut` →
  /// `easeInEaseOut`, `scale` → `scaleXY`), else the nearest by case-insensitive edit distance
  /// if it is close enough to be a likely typo (at most 2 edits, or a third of the word's length
  /// for long words).
  ///
  /// The cost is bounded whatever the input: words longer than ``maximumLength`` characters get
  /// no suggestion, candidates whose length alone rules them out are skipped before any distance
  /// is computed, and at most ``maximumCandidates`` candidates are compared.
  package static func closest(to word: String, in candidates: [String]) -> String? {
    guard word.count <= maximumLength else { return nil }
    let n = normalized(word)
    if let same = candidates.first(where: { normalized($0) == n && $0 != word }) { return same }
    if let alias = aliases[n], alias != word, candidates.contains(alias) { return alias }
    let w = Array(word.lowercased())
    let limit = max(2, w.count / 3)
    var best: (candidate: String, distance: Int)?
    for candidate in candidates.prefix(maximumCandidates) {
      let length = candidate.count
      guard abs(length - w.count) <= limit else { continue }
      let d = editDistance(w, Array(candidate.lowercased()))
      if d < best?.distance ?? .max { best = (candidate, d) }
    }
    guard let best, best.distance <= limit else { return nil }
    return best.candidate
  }

  /// The longest word that gets a suggestion, in characters.
  package static let maximumLength = 64
  /// How many candidates are compared at most (the first ones given).
  package static let maximumCandidates = 100_000

  /// The Levenshtein distance between `a` and `b` (insertions, deletions, substitutions).
  package static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var row = previous
    for i in 1...a.count {
      row[0] = i
      for j in 1...b.count {
        row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      swap(&previous, &row)
    }
    return previous[b.count]
  }
}
