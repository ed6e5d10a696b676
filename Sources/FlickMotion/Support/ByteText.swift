import Foundation

/// Byte counts as messages show them to people: "300 bytes", "16 MiB", "1.5 GiB". One formatter
/// for every cap's message (a render's memory, a template file's size, an export's output), so
/// that none writes 16777216.
package enum ByteText {
  /// `bytes` for a message: whole bytes under 1 MiB, else MiB rounded to whole ones, or GiB with
  /// one decimal from 1 GiB.
  package static func format(_ bytes: Int) -> String {
    if bytes < 1 << 20 { return "\(bytes) bytes" }
    let gib = Double(bytes) / Double(1 << 30)
    return gib >= 1 ? String(format: "%.1f GiB", gib) : String(format: "%.0f MiB", Double(bytes) / Double(1 << 20))
  }
}
