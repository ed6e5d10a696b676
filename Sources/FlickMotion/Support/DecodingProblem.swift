/// Why a JSON file Flick reads with `JSONDecoder` (a plan, a goldens manifest, a verify summary)
/// did not decode, for a message: what was wrong and its JSON path (`frames[2].time`), without the
/// decoder's own text, which can quote the file's bytes and says "The data couldn't be read"
/// for a number too large for its field.
package enum DecodingProblem {
  /// `error` (a `DecodingError`, or anything `JSONDecoder` threw) as a short reason with its
  /// JSON path.
  package static func reason(_ error: any Error) -> String {
    func at(_ context: DecodingError.Context) -> String {
      let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
      return path.isEmpty ? "" : " at '\(quoted: path.hasPrefix(".") ? String(path.dropFirst()) : path)'"
    }
    switch error as? DecodingError {
    case .typeMismatch(let type, let c)?: return "a value that is not " + expected(type) + at(c)
    case .valueNotFound(let type, let c)?: return "a missing value, expected " + expected(type) + at(c)
    case .keyNotFound(let key, let c)?: return "no '\(quoted: key.stringValue)'" + at(c)
    // Foundation's decoder on Linux reports a number that does not fit its field (1e30 or 1.5
    // for a whole number) as corrupt data with no path.
    case .dataCorrupted(let c)?:
      if let form = c.underlyingError as? ExpectedForm {
        return "a value of the wrong form" + at(c) + ", expected " + form.what
      }
      return c.codingPath.isEmpty
        ? "not valid JSON, or a number out of range for its field" : "a value of the wrong form" + at(c)
    default: return "not valid JSON"
    }
  }

  /// The form a field Flick decodes by hand takes, in words (`a time such as "1.5s"`), given as
  /// a `DecodingError`'s underlying error so that ``reason(_:)`` can say it: Flick's own text,
  /// never the file's.
  package struct ExpectedForm: Error {
    package let what: String

    package init(_ what: String) { self.what = what }
  }

  /// What a field of `type` holds, in words.
  private static func expected(_ type: Any.Type) -> String {
    switch type {
    case is Int.Type, is Int32.Type, is Int64.Type, is UInt64.Type: return "a whole number"
    case is Double.Type, is Float.Type: return "a number"
    case is String.Type: return "a string"
    case is Bool.Type: return "true or false"
    default: return "of the expected kind"
    }
  }
}
