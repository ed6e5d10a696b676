/// Which corners `cornerRadius` rounds (Core Animation's `CACornerMask`). y grows downwards,
/// so `minY` corners are the top ones.
public struct CornerMask: OptionSet, Sendable, Hashable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// Top-left.
  public static let layerMinXMinYCorner = CornerMask(rawValue: 1)
  /// Top-right.
  public static let layerMaxXMinYCorner = CornerMask(rawValue: 2)
  /// Bottom-left.
  public static let layerMinXMaxYCorner = CornerMask(rawValue: 4)
  /// Bottom-right.
  public static let layerMaxXMaxYCorner = CornerMask(rawValue: 8)
  /// All four corners (the default).
  public static let all: CornerMask = [
    .layerMinXMinYCorner, .layerMaxXMinYCorner, .layerMinXMaxYCorner, .layerMaxXMaxYCorner,
  ]
}
