import FlickMotion
/// The expansion count of ``SVGDocumentScanner``: the document with every reference drawn where
/// it is used, against ``SVGDocumentCheck/maximumInstances``, ``SVGDocumentCheck/maximumPathNumbers``,
/// ``SVGDocumentCheck/maximumTextCharacters`` and ``SVGDocumentCheck/maximumDashes``.
extension SVGDocumentScanner {
  struct Totals {
    var elements = 0
    var numbers = 0
    var characters = 0
    /// The longest its paths may be, in user units, and in em (text, lengths in em).
    var length = 0.0
    var ems = 0.0
    /// The dashes its dash patterns cut it into.
    var dashes = 0.0
  }

  /// Counts the document with every reference drawn where it is used.
  mutating func expand() throws(SVGDocumentCheck.Problem) {
    let depth = expandedDepth()
    largestFontSize = fontSizes.largest(levels: depth)
    leastFontSize = fontSizes.least.smallest(levels: depth)
    leastViewportDiagonal = viewports.diagonal(levels: depth)
    sheetShapes = sheetShapeLengths
    var memo: [Int: Totals] = [:]
    var open: Set<Int> = []
    var total = Totals()
    for root in roots {
      let t = try expanded(root, memo: &memo, open: &open, depth: 0)
      try add(&total, t, times: 1, at: elements[root].offset, what: "<\(quoted: elements[root].name)>")
    }
    // A stylesheet's references may apply to any element: count them once per element (a
    // marker once per vertex of every path).
    for reference in sheetReferences {
      guard let target = ids[reference.id] else { continue }
      let t = try expanded(target, memo: &memo, open: &open, depth: 0)
      let times = reference.marker ? max(1, total.numbers / 2) : elements.count
      try add(
        &total, t, times: times, at: reference.offset, what: "a stylesheet's url(#\(quoted: reference.id))")
    }
    for dash in sheetDashes {
      total.dashes += try checkDashes(dash, over: total)
      try add(&total, Totals(), times: 1, at: dash.offset, what: dash.what)
    }
  }

  func add(_ total: inout Totals, _ t: Totals, times: Int, at offset: Int, what: String) throws(SVGDocumentCheck
    .Problem)
  {
    let e = t.elements.multipliedReportingOverflow(by: times)
    let n = t.numbers.multipliedReportingOverflow(by: times)
    let c = t.characters.multipliedReportingOverflow(by: times)
    total.elements = e.overflow ? Int.max : total.elements.addingReportingOverflow(e.partialValue).partialValue
    total.numbers = n.overflow ? Int.max : total.numbers.addingReportingOverflow(n.partialValue).partialValue
    total.characters =
      c.overflow ? Int.max : total.characters.addingReportingOverflow(c.partialValue).partialValue
    total.length += t.length * Double(times)
    total.ems += t.ems * Double(times)
    total.dashes += t.dashes * Double(times)
    if e.overflow || total.elements < 0 || total.elements > SVGDocumentCheck.maximumInstances {
      throw fail(
        "\(quoted: what) makes the picture draw more than \(SVGDocumentCheck.maximumInstances) elements (every <use> and "
          + "url(#id) drawn where it is used)", at: offset)
    }
    if n.overflow || total.numbers < 0 || total.numbers > SVGDocumentCheck.maximumPathNumbers {
      throw fail(
        "\(quoted: what) makes the picture's paths more than \(SVGDocumentCheck.maximumPathNumbers) numbers (about "
          + "\(quoted: SVGDocumentCheck.maximumPathNumbers / 2) points, references included)", at: offset)
    }
    if c.overflow || total.characters < 0 || total.characters > SVGDocumentCheck.maximumTextCharacters {
      throw fail(
        "\(quoted: what) makes the picture's text more than \(SVGDocumentCheck.maximumTextCharacters) characters "
          + "(every <use> and url(#id) drawn where it is used)", at: offset)
    }
    if !(total.dashes <= SVGDocumentCheck.maximumDashes) {
      throw fail(
        "\(quoted: what) makes the picture's dashed strokes more than "
          + "\(quoted: LottieFeatureInspector.shownNumber(SVGDocumentCheck.maximumDashes)) dashes (every <use> and url(#id) "
          + "drawn where it is used)", at: offset)
    }
  }

  func expanded(_ index: Int, memo: inout [Int: Totals], open: inout Set<Int>, depth: Int) throws(SVGDocumentCheck
    .Problem) -> Totals
  {
    if let known = memo[index] { return known }
    let element = elements[index]
    guard !open.contains(index) else {
      throw fail("<\(quoted: element.name)> uses itself (a reference cycle)", at: element.offset)
    }
    guard depth < 4 * SVGDocumentCheck.maximumDepth else {
      throw fail(
        "references nested deeper than \(quoted: 4 * SVGDocumentCheck.maximumDepth) levels", at: element.offset)
    }
    open.insert(index)
    let sheet = sheetShapes[element.shape] ?? (0, 0)
    var total = Totals(
      elements: 1, numbers: element.numbers, characters: element.characters, length: element.length + sheet.units,
      ems: element.ems + sheet.ems + Double(element.characters) * SVGDocumentCheck.glyphOutlineEms)
    let what = "<\(quoted: element.name)>"
    try add(&total, Totals(), times: 1, at: element.offset, what: what)
    for child in element.children {
      try add(
        &total, try expanded(child, memo: &memo, open: &open, depth: depth + 1), times: 1, at: element.offset,
        what: what)
    }
    for reference in element.references {
      guard let target = ids[reference.id] else { continue }
      let t = try expanded(target, memo: &memo, open: &open, depth: depth + 1)
      try add(
        &total, t, times: reference.times, at: reference.offset,
        what: "\(what) referring to #\(quoted: reference.id)")
    }
    if let dash = densest(element.dashes) {
      total.dashes += try checkDashes(dash, over: total)
      try add(&total, Totals(), times: 1, at: element.offset, what: what)
    }
    open.remove(index)
    memo[index] = total
    return total
  }
}
