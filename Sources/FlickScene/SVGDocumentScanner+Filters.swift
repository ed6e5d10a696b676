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
}

extension SVGDocumentScanner {
  /// Checks a filter primitive's attributes whose cost librsvg does not bound: a convolution
  /// kernel's size and a turbulence's octaves. The values are read strictly (a number, or a
  /// list of them): one librsvg might read another way is refused rather than guessed.
  func filterPrimitive(_ name: String, _ attributes: [(name: String, value: String, offset: Int)])
    throws(SVGDocumentCheck.Problem)
  {
    for a in attributes {
      let attribute = Self.localName(a.name)
      let numbers = a.value.split(whereSeparator: { " ,\t\n\r".contains($0) }).map { Double($0) }
      switch (name, attribute) {
      case ("feConvolveMatrix", "kernelMatrix"):
        guard numbers.count <= SVGDocumentCheck.maximumKernelNumbers else {
          throw fail(
            "<feConvolveMatrix kernelMatrix>: \(numbers.count) numbers, more than the "
              + "\(SVGDocumentCheck.maximumKernelNumbers) of a 16 × 16 kernel", at: a.offset)
        }
      case ("feConvolveMatrix", "order"):
        let limit = Double(SVGDocumentCheck.maximumKernelOrder)
        guard (1...2).contains(numbers.count), numbers.allSatisfy({ $0.map { (1...limit).contains($0) } ?? false })
        else {
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
      default: continue
      }
    }
  }
}
