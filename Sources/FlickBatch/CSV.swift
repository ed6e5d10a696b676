import FlickTemplates

/// A small RFC 4180 reader for variant data files: comma-separated fields, double-quoted fields
/// may hold commas, newlines and doubled quotes; blank lines are skipped. Rows, fields per row and
/// field length are capped (``ManifestLimits``); errors give the line and column, never the text.
enum CSV {
  struct Row: Equatable {
    /// 1-based line where the row starts.
    var line: Int
    var fields: [String]
    /// Where each field starts (its first character, or its opening quote): what a message about
    /// a field points at. Not part of equality.
    var starts: [Position] = []

    static func == (a: Row, b: Row) -> Bool { a.line == b.line && a.fields == b.fields }

    /// The 1-based line and column of `field`'s start (the row's line, column 1, when unknown).
    func position(ofField field: Int) -> Position {
      field < starts.count ? starts[field] : Position(line: line, column: 1)
    }
  }

  /// A 1-based line and column (in characters).
  struct Position: Equatable {
    var line: Int
    var column: Int
  }

  static func parse(
    _ text: String, file: String, limits: ManifestLimits = ManifestLimits()
  ) throws(TemplateError) -> [Row] {
    var rows: [Row] = []
    var fields: [String] = []
    var starts: [Position] = []
    var fieldStart: Position?
    var field = ""
    var quoted = false
    var wasQuoted = false
    var line = 1
    var rowLine = 1
    var column = 0
    var chars = Array(text.replacingOccurrences(of: "\r\n", with: "\n"))
    if chars.first == "\u{FEFF}" { chars.removeFirst() }
    var i = 0
    func refuse(_ message: String) -> TemplateError {
      TemplateError(file: file, path: "", line: line, column: max(column, 1), message: message)
    }
    var fieldLength = 0
    func add(_ c: Character) throws(TemplateError) {
      fieldLength += 1
      guard fieldLength <= limits.csvFieldCharacters else {
        throw refuse("a field is longer than \(limits.csvFieldCharacters) characters")
      }
      field.append(c)
    }
    func endField() throws(TemplateError) {
      fields.append(field)
      starts.append(fieldStart ?? Position(line: line, column: column + 1))
      fieldStart = nil
      field = ""
      fieldLength = 0
      guard fields.count <= limits.csvColumns else { throw refuse("a row has more than \(limits.csvColumns) fields") }
    }
    func endRow() throws(TemplateError) {
      try endField()
      if !(fields.count == 1 && fields[0].isEmpty && !wasQuoted) {
        rows.append(Row(line: rowLine, fields: fields, starts: starts))
      }
      fields = []
      starts = []
      wasQuoted = false
      guard rows.count <= limits.csvRows else {
        throw refuse("the file has more than \(limits.csvRows) rows (header included)")
      }
    }
    while i < chars.count {
      let c = chars[i]
      column += 1
      if fieldStart == nil { fieldStart = Position(line: line, column: column) }
      if quoted {
        if c == "\"" {
          if i + 1 < chars.count && chars[i + 1] == "\"" {
            try add("\"")
            i += 1
          } else {
            quoted = false
          }
        } else {
          if c == "\n" { line += 1; column = 0 }
          try add(c)
        }
      } else if c == "\"" && field.isEmpty {
        quoted = true
        wasQuoted = true
      } else if c == "," {
        try endField()
      } else if c == "\n" {
        try endRow()
        line += 1
        column = 0
        rowLine = line
      } else {
        try add(c)
      }
      i += 1
    }
    if quoted {
      throw TemplateError(file: file, path: "", line: rowLine, column: 1, message: "a quoted field is not closed")
    }
    if !field.isEmpty || !fields.isEmpty || wasQuoted { try endRow() }
    return rows
  }
}
