/// The arguments of one spec call, consumed by label; whatever is left over is an error.
struct SpecArguments {
  let name: String
  let column: Int
  private var labelled: [String: SpecExpression] = [:]
  private var positional: [SpecExpression] = []

  static let timingLabels = MediaTiming.specLabels

  init(name: String, arguments: [SpecArgument], column: Int) throws(MotionError) {
    self.name = name
    self.column = column
    for a in arguments {
      if let label = a.label {
        guard labelled[label] == nil else {
          throw MotionError(
            "'\(quoted: label)' is given twice in \(quoted: name)(…)", column: a.value.column, argument: label)
        }
        labelled[label] = a.value
      } else {
        positional.append(a.value)
      }
    }
  }

  func has(_ label: String) -> Bool { labelled[label] != nil }

  /// The column of the value given for `label`, if any.
  func column(of label: String) -> Int? { labelled[label]?.column }

  mutating func take(_ label: String) -> SpecExpression? { labelled.removeValue(forKey: label) }

  mutating func consumeAll() {
    labelled = [:]
    positional = []
  }

  mutating func takePositional() -> SpecExpression? { positional.isEmpty ? nil : positional.removeFirst() }

  /// Everything not yet consumed, as call arguments (used to hand curve options on).
  func remainingCurveArguments() -> [SpecArgument]? {
    let all =
      positional.map { SpecArgument(label: nil, value: $0) }
      + labelled.sorted { $0.key < $1.key }.map { SpecArgument(label: $0.key, value: $0.value) }
    return all.isEmpty ? nil : all
  }

  mutating func number(_ label: String, in range: ClosedRange<Double>? = nil) throws(MotionError) -> Double? {
    guard let e = take(label) else { return nil }
    guard case .number(let v, let c) = e else {
      throw MotionError(
        "'\(quoted: label)' in \(quoted: name)(…) must be a number, found \(quoted: e)", column: e.column,
        argument: label)
    }
    if let range, !range.contains(v) {
      let lo = SpecExpression.format(range.lowerBound)
      let hi = range.upperBound >= 1e300 ? "∞" : SpecExpression.format(range.upperBound)
      throw MotionError(
        "'\(quoted: label)' in \(quoted: name)(…) must be in \(lo)…\(hi), found \(SpecExpression.format(v))", column: c,
        argument: label)
    }
    return v
  }

  mutating func positionalNumber() throws(MotionError) -> Double? {
    guard let e = takePositional() else { return nil }
    guard case .number(let v, _) = e else {
      throw MotionError("expected a number in \(quoted: name)(…), found \(quoted: e)", column: e.column)
    }
    return v
  }

  mutating func bool(_ label: String) throws(MotionError) -> Bool? {
    guard let e = take(label) else { return nil }
    if case .call(let n, nil, _) = e, n == "true" || n == "false" { return n == "true" }
    throw MotionError(
      "'\(quoted: label)' in \(quoted: name)(…) must be true or false, found \(quoted: e)", column: e.column,
      argument: label)
  }

  mutating func choice<T: RawRepresentable & CaseIterable>(_ label: String, _: T.Type, positional: Bool = false)
    throws(MotionError) -> T? where T.RawValue == String
  {
    guard let e = take(label) ?? (positional ? takePositional() : nil) else { return nil }
    let options = T.allCases.map(\.rawValue)
    if case .call(let n, nil, _) = e, let v = T(rawValue: n) { return v }
    if case .string(let n, _) = e, let v = T(rawValue: n) { return v }
    throw MotionError(
      "'\(quoted: label)' in \(quoted: name)(…) must be one of \(options.joined(separator: ", ")), found \(quoted: e)",
      column: e.column, argument: label)
  }

  mutating func duration() throws(MotionError) -> Double {
    try number("duration", in: 0...3600) ?? 0.4
  }

  /// The engines `stepping:` names.
  enum SteppingName: String, CaseIterable {
    case analytic, pop, gpuanimation
  }

  /// `stepping: analytic | pop | gpuanimation` and `fps: 1…1000` (default 60).
  mutating func stepping() throws(MotionError) -> Stepping {
    let fpsColumn = column(of: "fps")
    let name = try choice("stepping", SteppingName.self)
    let fps = try number("fps", in: 1...1000)
    switch name ?? (fps == nil ? .analytic : .pop) {
    case .analytic:
      if fps != nil {
        throw MotionError("'fps' applies to stepping: pop or gpuanimation", column: fpsColumn, argument: "fps")
      }
      return .analytic
    case .pop: return .pop(fps: fps ?? 60)
    case .gpuanimation: return .gpuAnimation(fps: fps ?? 60)
    }
  }

  /// Core Animation timing options, or `nil` when none is given.
  mutating func timing() throws(MotionError) -> MediaTiming? {
    guard Self.timingLabels.contains(where: has) else { return nil }
    return MediaTiming(
      beginTime: try number("delay", in: MediaTiming.Ranges.delay) ?? 0,
      timeOffset: try number("timeOffset", in: MediaTiming.Ranges.timeOffset) ?? 0,
      repeatCount: try number("repeatCount", in: MediaTiming.Ranges.repeatCount) ?? 0,
      repeatForever: try bool("repeatForever") ?? false,
      autoreverses: try bool("autoreverses") ?? false,
      fillMode: try choice("fill", MediaTiming.FillMode.self) ?? .forwards)
  }

  /// Fails on any argument not consumed (other than `allowing`).
  func finish(allowing: [String] = []) throws(MotionError) {
    if let extra = positional.first {
      throw MotionError("unexpected positional argument \(quoted: extra) in \(quoted: name)(…)", column: extra.column)
    }
    if let (label, value) = labelled.filter({ !allowing.contains($0.key) }).min(by: {
      $0.value.column < $1.value.column
    }) {
      throw MotionError("\(quoted: name)(…) has no option '\(quoted: label)'", column: value.column, argument: label)
    }
  }
}
