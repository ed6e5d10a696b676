import FlickMotion

extension SVGDocumentCheck {
  /// The most numbers in a `<feConvolveMatrix>`'s `kernelMatrix` (256, a 16 × 16 kernel).
  /// librsvg 2.54 aborts the whole process (a Rust panic, "Data storage buffer dimension
  /// mismatch") on a kernel of more than 400 numbers, whatever the `order` says.
  package static let maximumKernelNumbers = 256
  /// The largest `order` of a `<feConvolveMatrix>` on either side (16).
  package static let maximumKernelOrder = 16
  /// The most octaves of `<feTurbulence>` noise (10). Each octave is one more noise pass over
  /// every pixel, at twice the frequency of the one before: past ten the detail added is finer
  /// than a pixel at any base frequency, and 10⁹ octaves of a 16 × 16 picture did not end.
  package static let maximumTurbulenceOctaves = 10
  /// The largest `<feMorphology>` radius, in user units on either axis (10). librsvg's time grows
  /// with it (every pixel looks at the pixels within the radius): a radius of 30 on twenty
  /// 400-point squares took 30 s, 5 took 4.5 s.
  package static let maximumMorphologyRadius = 10
  /// The smallest `kernelUnitLength` of `<feDiffuseLighting>` and `<feSpecularLighting>`, in user
  /// units (1). librsvg draws the light on a copy of the input scaled by its inverse, so its
  /// memory and time grow with its inverse squared: 0.05 on five 400-point squares took 540 MB and
  /// did not end in a minute.
  package static let minimumKernelUnitLength = 1
  /// The most numbers in a component-transfer table (`tableValues` of `<feFuncR>`, `<feFuncG>`,
  /// `<feFuncB>`, `<feFuncA>`): 1,024. librsvg reads a list of any length and looks one entry up
  /// per pixel and channel, but a channel has 256 levels, so a longer table draws nothing more.
  package static let maximumTableValues = 1_024
  /// The most numbers in other filter attributes that take a short list, as librsvg reads them:
  /// a `<feColorMatrix>`'s `values` (20, a 5 × 4 matrix; one for `saturate` or `hueRotate`), and
  /// one or two (`x [y]`) in `stdDeviation` of `<feGaussianBlur>` and `<feDropShadow>` and
  /// `baseFrequency` of `<feTurbulence>`. librsvg refuses a longer list as a whole.
  package static func maximumListNumbers(element: String, attribute: String) -> Int? {
    switch (element, attribute) {
    case ("feFuncR", "tableValues"), ("feFuncG", "tableValues"), ("feFuncB", "tableValues"),
      ("feFuncA", "tableValues"):
      maximumTableValues
    case ("feColorMatrix", "values"): 20
    case ("feGaussianBlur", "stdDeviation"), ("feDropShadow", "stdDeviation"), ("feTurbulence", "baseFrequency"): 2
    case ("feConvolveMatrix", "kernelMatrix"): maximumKernelNumbers
    default: nil
    }
  }
}

extension SVGDocumentScanner {
  /// Checks a filter primitive's attributes whose cost librsvg does not bound: a convolution
  /// kernel's size, a turbulence's octaves, a morphology's radius and a lighting's kernel unit.
  /// The values are read strictly (a number, or a list of them): one librsvg might read another
  /// way is refused rather than guessed. In a filter whose `primitiveUnits` are
  /// `objectBoundingBox` (`boundingBox`), a radius or kernel unit is a fraction of the filtered
  /// element's size, which is not known here: only 0 (no radius) is accepted there.
  func filterPrimitive(
    _ name: String, _ attributes: [(name: String, value: String, offset: Int)], boundingBox: Bool = false
  ) throws(SVGDocumentCheck.Problem) {
    guard name.hasPrefix("fe") else { return }
    for a in attributes {
      let attribute = Self.localName(a.name)
      if let limit = SVGDocumentCheck.maximumListNumbers(element: name, attribute: attribute) {
        let count = Self.listCount(a.value)
        guard count <= limit else {
          throw fail(
            "<\(quoted: name) \(quoted: attribute)>: \(count) numbers, more than the \(limit) "
              + (name == "feConvolveMatrix"
                ? "of a 16 × 16 kernel" : name == "feColorMatrix" ? "of a 5 × 4 matrix" : "librsvg reads there"),
            at: a.offset)
        }
      }
      // Read only for the attributes below, whose lists are one or two numbers.
      var numbers: [Double?] { Self.listNumbers(a.value, upTo: 3) }
      switch (name, attribute) {
      case ("feConvolveMatrix", "order"):
        let limit = Double(SVGDocumentCheck.maximumKernelOrder)
        guard Self.oneOrTwo(numbers, in: 1...limit) else {
          throw fail(
            "<feConvolveMatrix order=\"\(quoted: a.value, limit: 40)\">: expected one or two numbers from 1 to "
              + "\(SVGDocumentCheck.maximumKernelOrder)", at: a.offset)
        }
      case ("feTurbulence", "numOctaves"):
        let limit = Double(SVGDocumentCheck.maximumTurbulenceOctaves)
        guard numbers.count == 1, let octaves = numbers[0], (0...limit).contains(octaves) else {
          throw fail(
            "<feTurbulence numOctaves=\"\(quoted: a.value, limit: 40)\">: expected a number from 0 to "
              + "\(SVGDocumentCheck.maximumTurbulenceOctaves)", at: a.offset)
        }
      case ("feMorphology", "radius"):
        let limit = boundingBox ? 0 : Double(SVGDocumentCheck.maximumMorphologyRadius)
        guard Self.oneOrTwo(numbers, in: 0...limit) else {
          throw fail(
            "<feMorphology radius=\"\(quoted: a.value, limit: 40)\">: expected one or two numbers from 0 to "
              + (boundingBox
                ? "0 in a filter with primitiveUnits=\"objectBoundingBox\" (a fraction of the element's size)"
                : "\(SVGDocumentCheck.maximumMorphologyRadius) (librsvg's time grows with the radius)"),
            at: a.offset)
        }
      case ("feDiffuseLighting", "kernelUnitLength"), ("feSpecularLighting", "kernelUnitLength"):
        let least = Double(SVGDocumentCheck.minimumKernelUnitLength)
        guard !boundingBox, Self.oneOrTwo(numbers, in: least...Double.greatestFiniteMagnitude) else {
          throw fail(
            "<\(quoted: name) kernelUnitLength=\"\(quoted: a.value, limit: 40)\">: "
              + (boundingBox
                ? "not accepted in a filter with primitiveUnits=\"objectBoundingBox\" (a fraction of the element's size)"
                : "expected one or two numbers of \(SVGDocumentCheck.minimumKernelUnitLength) or more "
                  + "(librsvg's memory grows with its inverse squared)"),
            at: a.offset)
        }
      default: continue
      }
    }
  }

  /// How many items a number list holds (separated by white space and commas), counted over its
  /// bytes without building any.
  static func listCount(_ value: String) -> Int {
    var count = 0
    var inItem = false
    for byte in value.utf8 {
      let separator = XMLTokenizer.isSpace(byte) || byte == 0x2C
      if !separator && !inItem { count += 1 }
      inItem = !separator
    }
    return count
  }

  /// The first `limit` items of a number list, each as a number or `nil` when it is not one (the
  /// rest, however long, is not read).
  static func listNumbers(_ value: String, upTo limit: Int) -> [Double?] {
    var out: [Double?] = []
    let utf8 = value.utf8
    var i = utf8.startIndex
    func separator(_ byte: UInt8) -> Bool { XMLTokenizer.isSpace(byte) || byte == 0x2C }
    while out.count < limit {
      while i < utf8.endIndex, separator(utf8[i]) { i = utf8.index(after: i) }
      guard i < utf8.endIndex else { break }
      var end = i
      while end < utf8.endIndex, !separator(utf8[end]) { end = utf8.index(after: end) }
      out.append(Double(String(decoding: utf8[i..<end], as: UTF8.self)))
      i = end
    }
    return out
  }

  /// Whether `numbers` are one or two numbers, each within `range`.
  private static func oneOrTwo(_ numbers: [Double?], in range: ClosedRange<Double>) -> Bool {
    (1...2).contains(numbers.count) && numbers.allSatisfy { $0.map { range.contains($0) } ?? false }
  }
}
