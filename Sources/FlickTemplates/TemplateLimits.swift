import FlickMotion
import FlickScene
/// Caps on what loading one template may cost, checked while it is read so a hostile template is
/// refused with a located error (exit 2) before it can exhaust memory or time.
///
/// The defaults are far above what any legitimate template needs (the bundled ones use a few
/// kilobytes, short strings and small images) and well below what would hurt a build machine.
/// `flick` lets an operator lower or raise them (`--max-pixels`, `FLICK_MAX_TEMPLATE_BYTES`, …,
/// see `docs/security.md`).
public struct TemplateLimits: Sendable, Equatable {
  /// The largest template file, in bytes (default 16 MiB).
  public var maximumFileBytes: Int
  /// The most bytes parameter substitution may produce, summed over every reference: a 100 KB
  /// string referenced 40,000 times is 4 GB of text and is refused (default 64 MiB).
  public var maximumExpandedBytes: Int
  /// The longest text layer `string`, in characters (default 10,000: several pages of text).
  public var maximumTextLength: Int
  /// The most pixels an image asset may decode to, read from its header before any decoding
  /// (default 67,108,864 = 8192 × 8192, 256 MiB decoded).
  public var maximumImagePixels: Int
  /// The most component instances (`use:` layers) a template may expand into, counting the
  /// instances inside instances (default 10,000): a component used 1,000 times by a component
  /// used 1,000 times is a million and is refused after the first 10,000 small copies.
  public var maximumComponentInstances: Int
  /// The most layers a template may have once every component instance is expanded, sublayers
  /// and masks included, counted while the instances are expanded (default 100,000: about
  /// 700 MB and 2 s to load; a component of 1,000 layers used 1,000 times would be a
  /// million layers and 2 GB in one array).
  package var maximumLayers = 100_000
  /// The most animations a template's timeline may compile to, counted as each is added, whether
  /// a repeat unrolled it, a component instance's timeline played it or it was written once
  /// (default 200,000: about 5 s to compile; 10,000 instances of a component of 100 entries
  /// would be a million).
  package var maximumAnimations = 200_000
  /// The most crossings one template's `when` entries may wait for, each iteration of a repeat
  /// counted (default 1,000; a template uses a handful). Each searches a track.
  package var maximumCrossingEntries = 1_000
  /// The most track samples the searches of all `when` entries of one template may read
  /// together, each segment of the watched properties they look through counted too
  /// (default 4,194,304 = 2²²: one search of the longest stretch, an hour in steps of 1/1024 s,
  /// reads 3,686,400). Without it twenty 3 KB entries searching an hour each took over a minute.
  package var maximumCrossingSamples = 1 << 22

  public init(
    maximumFileBytes: Int = 16 << 20, maximumExpandedBytes: Int = 64 << 20, maximumTextLength: Int = 10_000,
    maximumImagePixels: Int = 8192 * 8192, maximumComponentInstances: Int = 10_000
  ) {
    self.maximumComponentInstances = maximumComponentInstances
    self.maximumFileBytes = maximumFileBytes
    self.maximumExpandedBytes = maximumExpandedBytes
    self.maximumTextLength = maximumTextLength
    self.maximumImagePixels = maximumImagePixels
  }
}

extension TemplateLimits {
  /// The most segments (each `M`, `L`, `C`, `Q`, `A`… command after conversion, and each `Z`) one
  /// path of a template may have, from SVG path data or an SVG file: FlickScene's
  /// ``FlickScene/ShapePath/maximumSVGPathElements`` (10,000; a detailed icon has a few hundred),
  /// the one constant every SVG-to-path conversion refers to.
  package static let maximumPathSegments = ShapePath.maximumSVGPathElements
  /// The most path segments one frame of a template draws in all, every shape path and shadow
  /// path counted once per replicator copy (default 200,000).
  package static let maximumDrawnPathSegments = 200_000
  /// The most colours (stops) one gradient may have, where a layer or the canvas background is
  /// written and in every `colors` value the timeline animates to (1,024; a designer's gradient
  /// has a handful). Drawing costs grow with the stops: 100,000 took seconds a frame.
  package static let maximumGradientStops = 1_024

  /// The colours of the array `node` (a gradient's `colors`), refused past
  /// ``maximumGradientStops`` before any is decoded.
  static func gradientColors(_ node: TemplateNode) throws(TemplateError) -> [Color] {
    let items = try node.array()
    guard items.count <= maximumGradientStops else {
      throw node.error(
        "a gradient has at most \(maximumGradientStops) colours, found \(items.count); use fewer stops")
    }
    var colors: [Color] = []
    for item in items { colors.append(try item.color()) }
    return colors
  }

  /// The most different font files a template may use (its `fonts` and `font` parameters
  /// together), and the most entries its `fonts` list may have (default 64; a family of a dozen
  /// weights and styles is a dozen files). Each file is read once per load however often it is
  /// named, and fontconfig scans each one when the template is drawn.
  package static let maximumFontFiles = 64
}

/// What parameter substitution has produced so far, against ``TemplateLimits/maximumExpandedBytes``.
struct ExpansionBudget {
  let limit: Int
  private(set) var used = 0

  init(limit: Int) { self.limit = limit }

  /// Counts `bytes` more, or throws at `node` when the total passes the limit.
  mutating func spend(_ bytes: Int, at node: TemplateNode) throws(TemplateError) {
    used += bytes
    guard used <= limit else {
      throw node.error(
        "parameter substitution expands the template past \(ByteText.format(limit)) "
          + "(a parameter referenced too many times?); "
          + "raise the cap with --max-template-bytes or FLICK_MAX_TEMPLATE_BYTES if this is intended")
    }
  }

  /// About how many bytes `value` takes as text (strings by their UTF-8 length, containers by
  /// their items, 8 for every scalar and punctuation).
  static func size(of value: JSON5Value) -> Int {
    switch value.kind {
    case .string(let s): return s.utf8.count + 2
    case .array(let items): return items.reduce(2) { $0 + size(of: $1) + 1 }
    case .object(let members): return members.reduce(2) { $0 + $1.key.utf8.count + size(of: $1.value) + 2 }
    default: return 8
    }
  }
}
