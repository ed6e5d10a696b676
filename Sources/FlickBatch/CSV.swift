import FlickTemplates

/// A small RFC 4180 reader for variant data files: comma-separated fields, double-quoted fields
/// may hold commas, newlines and doubled quotes; blank lines are skipped.
enum CSV {
  struct Row: Equatable {
    /// 1-based line where the row starts.
    var line: Int
    var fields: [String]
  }

  static func parse(_ text: String, file: String) throws(TemplateError) -> [Row] {
    var rows: [Row] = []
    var fields: [String] = []
    var field = ""
    var quoted = false
    var wasQuoted = false
    var line = 1
    var rowLine = 1
    var column = 0
    var chars = Array(text.replacingOccurrences(of: "\r\n", with: "\n"))
    if chars.first == "\u{FEFF}" { chars.removeFirst() }
    var i = 0
    func endRow() {
      fields.append(field)
      if !(fields.count == 1 && fields[0].isEmpty && !wasQuoted) { rows.append(Row(line: rowLine, fields: fields)) }
      fields = []
      field = ""
      wasQuoted = false
    }
    while i < chars.count {
      let c = chars[i]
      column += 1
      if quoted {
        if c == "\"" {
          if i + 1 < chars.count && chars[i + 1] == "\"" {
            field.append("\"")
            i += 1
          } else {
            quoted = false
          }
        } else {
          if c == "\n" { line += 1; column = 0 }
          field.append(c)
        }
      } else if c == "\"" && field.isEmpty {
        quoted = true
        wasQuoted = true
      } else if c == "," {
        fields.append(field)
        field = ""
      } else if c == "\n" {
        endRow()
        line += 1
        column = 0
        rowLine = line
      } else {
        field.append(c)
      }
      i += 1
    }
    if quoted {
      throw TemplateError(file: file, path: "", line: rowLine, column: 1, message: "a quoted field is not closed")
    }
    if !field.isEmpty || !fields.isEmpty || wasQuoted { endRow() }
    return rows
  }
}
