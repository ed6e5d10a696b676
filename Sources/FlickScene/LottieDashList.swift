/// A stroke's dash list (`st`, `gs` key `d`: entries `{n, nm, v}`) written so that rlottie 0.1
/// draws what lottie-web and lottie-ios read.
///
/// lottie-web (`DashProperty`) and lottie-ios (`StrokeNode`) read the entries by name: every
/// entry named `o` is the offset (the last one wins; none is an offset of 0), all the others, in
/// order, are the dash array, which SVG and Core Graphics repeat once when its length is odd
/// (`[d, g, d]` dashes as `[d, g, d, d, g, d]`). An empty dash array, or one whose lengths add
/// up to 0 (SVG), is a solid stroke. rlottie 0.1 reads the entries by place: the last is the
/// offset, the others dashes and gaps, and with an even number of entries the dash before the
/// offset takes a gap as long as itself. A list in another order (`o` first, no `o`, an odd
/// number of dashes and gaps before the offset) is written as the dashes and gaps in order (twice
/// when odd), then the offset entry (`{"n": "o", "v": {"a": 0, "k": 0}}` when there is none);
/// entries are moved whole, keyframes and all. A list whose dashes and gaps are 0 at every
/// moment, or that has none, is left out (a solid stroke). A list rlottie already reads as
/// lottie-web does (dashes and gaps in pairs, or one dash, then one `o`) is left as it is.
enum LottieDashList {
  /// The shape list (a layer's `shapes`, a group's `it`) with every stroke's dash list written
  /// for rlottie, groups included.
  static func shapes(_ list: LottieJSON, depth: Int = 0) -> LottieJSON {
    guard depth < LottieJSON.maximumDepth, let items = list.items else { return list }
    return .array(items.map { item(_: $0, depth: depth) })
  }

  private static func item(_ item: LottieJSON, depth: Int) -> LottieJSON {
    guard var members = item.members, let ty = item["ty"]?.text else { return item }
    switch ty {
    case "gr":
      guard let j = members.firstIndex(where: { $0.key == "it" }) else { return item }
      members[j].value = shapes(members[j].value, depth: depth + 1)
    case "st", "gs":
      guard let j = members.firstIndex(where: { $0.key == "d" }), let entries = members[j].value.items else {
        return item
      }
      switch reading(entries) {
      case .kept: return item
      case .solid: members.remove(at: j)
      case .reordered(let list): members[j].value = .array(list)
      }
    default: return item
    }
    return .object(members)
  }

  /// What rlottie is given for a dash list.
  enum Reading {
    /// The list as it is: rlottie already reads it as lottie-web does.
    case kept
    /// No list: lottie-web draws the stroke solid.
    case solid
    /// The dashes and gaps in order (twice when odd), then the offset.
    case reordered([LottieJSON])
  }

  /// How rlottie is given `entries`.
  static func reading(_ entries: [LottieJSON]) -> Reading {
    guard !entries.isEmpty else { return .kept }
    let isOffset = { (entry: LottieJSON) in entry["n"]?.text == "o" }
    let lengths = entries.filter { !isOffset($0) }
    let alwaysZero = lengths.allSatisfy { entry in
      LottieFeatureInspector.range(entry["v"]).map { $0 == (0, 0) } ?? false
    }
    if alwaysZero { return .solid }
    let offsetLast = entries.indices.filter { isOffset(entries[$0]) } == [entries.count - 1]
    if offsetLast && (lengths.count % 2 == 0 || lengths.count == 1) { return .kept }
    let offset = entries.last(where: isOffset) ?? zeroOffset
    return .reordered((lengths.count % 2 == 0 ? lengths : lengths + lengths) + [offset])
  }

  /// The offset lottie-web and lottie-ios use when a list names none.
  private static let zeroOffset: LottieJSON = {
    let value = LottieJSON.object([
      .init(key: "a", value: .number("0"), offset: 0), .init(key: "k", value: .number("0"), offset: 0),
    ])
    return .object([
      .init(key: "n", value: .string("o"), offset: 0), .init(key: "nm", value: .string("offset"), offset: 0),
      .init(key: "v", value: value, offset: 0),
    ])
  }()
}
