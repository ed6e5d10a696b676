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
    for a in attributes {
      let attribute = Self.localName(a.name)
      var numbers: [Double?] { a.value.split(whereSeparator: { " ,\t\n\r".contains($0) }).map { Double($0) } }
      switch (name, attribute) {
      case ("feConvolveMatrix", "kernelMatrix"):
        let count = numbers.count
        guard count <= SVGDocumentCheck.maximumKernelNumbers else {
          throw fail(
            "<feConvolveMatrix kernelMatrix>: \(count) numbers, more than the "
              + "\(SVGDocumentCheck.maximumKernelNumbers) of a 16 × 16 kernel", at: a.offset)
        }
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

  /// Whether `numbers` are one or two numbers, each within `range`.
  private static func oneOrTwo(_ numbers: [Double?], in range: ClosedRange<Double>) -> Bool {
    (1...2).contains(numbers.count) && numbers.allSatisfy { $0.map { range.contains($0) } ?? false }
  }
}
