internal import CCairo
internal import CPango
internal import CRLottie
internal import CRSVG
import Foundation

/// The versions of the C libraries that decide Flick's pixels, read at run time from the
/// libraries actually loaded, plus the CPU architecture.
///
/// Golden images are only byte-comparable between identical renderers: a different Cairo, pixman
/// (compositing), FreeType (glyph rasterising) or HarfBuzz (shaping) can move anti-aliasing by a
/// pixel. Snapshot manifests record this fingerprint so a mismatch can be explained.
///
/// Cairo is asked through its header (`cairo_version_string`), Pango and HarfBuzz through the
/// functions Flick loads with Pango (`pango_version_string`, `hb_version_string`; ``Pango``).
/// pixman and FreeType are not linked by Flick directly, so their version functions
/// (`pixman_version_string`, `FT_Library_Version`) are looked up with `dlsym` in the process's
/// loaded libraries; when one cannot be found its value says so instead of guessing.
package struct RendererFingerprint: Sendable, Equatable, Codable, CustomStringConvertible {
  /// The text used when a library's version cannot be obtained at run time.
  package static let unavailable = "unavailable"

  /// Cairo version, such as `1.16.0`.
  package var cairo: String
  /// Pango version.
  package var pango: String
  /// pixman version, or ``unavailable``.
  package var pixman: String
  /// FreeType version, or ``unavailable``.
  package var freetype: String
  /// HarfBuzz version, or ``unavailable``.
  package var harfbuzz: String
  /// CPU architecture: `x86_64`, `arm64`, ….
  package var architecture: String
  /// rlottie version (Lottie layers), read from the loaded library's file name, or
  /// ``unavailable``; nil in manifests written before Flick drew Lottie files.
  package var rlottie: String?
  /// librsvg version (SVG pictures); nil in manifests written before Flick drew SVG.
  package var librsvg: String?

  package init(
    cairo: String, pango: String, pixman: String, freetype: String, harfbuzz: String, architecture: String,
    rlottie: String? = nil, librsvg: String? = nil
  ) {
    self.rlottie = rlottie
    self.librsvg = librsvg
    self.cairo = cairo
    self.pango = pango
    self.pixman = pixman
    self.freetype = freetype
    self.harfbuzz = harfbuzz
    self.architecture = architecture
  }

  /// The fingerprint of this process's renderer. Asking for it loads rlottie and librsvg (which
  /// Flick otherwise loads only to draw a Lottie file or an SVG) to read their versions.
  package static let current = RendererFingerprint(
    cairo: cairoVersion,
    pango: pangoVersion { $0.version_string() },
    pixman: pixmanVersion,
    freetype: freetypeVersion(),
    harfbuzz: pangoVersion { $0.hb_version_string() },
    architecture: currentArchitecture(),
    rlottie: rlottieVersion(),
    librsvg: librsvgVersion())

  /// Cairo's version alone, without the rest of ``current`` (which loads rlottie and librsvg).
  package static let cairoVersion = String(cString: cairo_version_string())
  /// pixman's version alone, or ``unavailable``.
  package static let pixmanVersion = versionString(symbol: "pixman_version_string")

  /// One line: `cairo 1.16.0, pango 1.50.12, pixman 0.42.2, freetype 2.13.0, harfbuzz 6.0.0, x86_64`.
  package var description: String {
    var text = "cairo \(cairo), pango \(pango), pixman \(pixman), freetype \(freetype), harfbuzz \(harfbuzz)"
    if let rlottie { text += ", rlottie \(rlottie)" }
    if let librsvg { text += ", librsvg \(librsvg)" }
    return text + ", \(architecture)"
  }

  /// The names of the fields that differ from `other` (empty when the renderers are the same).
  package func differences(from other: RendererFingerprint) -> [String] {
    var out: [String] = []
    if cairo != other.cairo { out.append("cairo \(other.cairo) → \(cairo)") }
    if pango != other.pango { out.append("pango \(other.pango) → \(pango)") }
    if pixman != other.pixman { out.append("pixman \(other.pixman) → \(pixman)") }
    if freetype != other.freetype { out.append("freetype \(other.freetype) → \(freetype)") }
    if harfbuzz != other.harfbuzz { out.append("harfbuzz \(other.harfbuzz) → \(harfbuzz)") }
    // Versions a manifest does not record (written before Flick used the library) are not drift.
    if let mine = rlottie, let theirs = other.rlottie, mine != theirs { out.append("rlottie \(theirs) → \(mine)") }
    if let mine = librsvg, let theirs = other.librsvg, mine != theirs { out.append("librsvg \(theirs) → \(mine)") }
    if architecture != other.architecture { out.append("arch \(other.architecture) → \(architecture)") }
    return out
  }

  // MARK: - Run-time lookups

  private typealias VersionString = @convention(c) () -> UnsafePointer<CChar>?
  private typealias FTInit = @convention(c) (UnsafeMutablePointer<OpaquePointer?>) -> Int32
  private typealias FTDone = @convention(c) (OpaquePointer?) -> Int32
  private typealias FTVersion =
    @convention(c) (
      OpaquePointer?, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>
    ) -> Void

  private static func symbol(_ name: String) -> UnsafeMutableRawPointer? {
    guard let handle = dlopen(nil, RTLD_NOW) else { return nil }
    return dlsym(handle, name)
  }

  /// A version string from the functions loaded with Pango, or ``unavailable`` when Pango
  /// cannot be loaded.
  private static func pangoVersion(_ call: (flick_pango_symbols) -> UnsafePointer<CChar>?) -> String {
    guard Pango.failure == nil, let text = call(Pango.api) else { return unavailable }
    return String(cString: text)
  }

  private static func versionString(symbol name: String) -> String {
    guard let sym = symbol(name) else { return unavailable }
    let function = unsafeBitCast(sym, to: VersionString.self)
    guard let text = function() else { return unavailable }
    return String(cString: text)
  }

  /// rlottie has no version call: the version is in the file name of the library this process
  /// loaded (`librlottie.so.0.1.0-1` → `0.1.0`), found in `/proc/self/maps` (Linux).
  private static func rlottieVersion() -> String {
    guard flick_rlottie_load(nil) != 0 else { return unavailable }  // loaded, so mapped
    guard let maps = readToEnd("/proc/self/maps"),
      let line = maps.split(separator: "\n").first(where: { $0.contains("/librlottie.so") }),
      let slash = line.firstIndex(of: "/")
    else { return unavailable }
    let file = URL(fileURLWithPath: String(line[slash...])).resolvingSymlinksInPath().lastPathComponent
    guard let range = file.range(of: ".so.") else { return unavailable }
    var version = file[range.upperBound...].prefix { $0.isNumber || $0 == "." }
    while version.hasSuffix(".") { version = version.dropLast() }
    return version.isEmpty ? unavailable : String(version)
  }

  /// librsvg's version (`2.54.7`) from the library loaded, or ``unavailable``.
  private static func librsvgVersion() -> String {
    guard flick_rsvg_load(nil) != 0 else { return unavailable }
    return "\(flick_rsvg_major_version()).\(flick_rsvg_minor_version()).\(flick_rsvg_micro_version())"
  }

  /// The whole file, read with `read(2)` until it returns 0 (a /proc file reports a size of 0,
  /// and Foundation's readers trap on an interrupted read), or nil.
  private static func readToEnd(_ path: String) -> String? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while bytes.count < 64 << 20 {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { break }
      bytes += chunk[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func freetypeVersion() -> String {
    guard let initSym = symbol("FT_Init_FreeType"), let doneSym = symbol("FT_Done_FreeType"),
      let versionSym = symbol("FT_Library_Version")
    else { return unavailable }
    let initialise = unsafeBitCast(initSym, to: FTInit.self)
    let done = unsafeBitCast(doneSym, to: FTDone.self)
    let version = unsafeBitCast(versionSym, to: FTVersion.self)
    var library: OpaquePointer?
    guard initialise(&library) == 0, library != nil else { return unavailable }
    defer { _ = done(library) }
    var major: Int32 = 0, minor: Int32 = 0, patch: Int32 = 0
    version(library, &major, &minor, &patch)
    return "\(major).\(minor).\(patch)"
  }

  private static func currentArchitecture() -> String {
    #if arch(x86_64)
      return "x86_64"
    #elseif arch(arm64)
      return "arm64"
    #elseif arch(i386)
      return "i386"
    #elseif arch(arm)
      return "arm"
    #else
      var info = utsname()
      uname(&info)
      return withUnsafeBytes(of: &info.machine) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
    #endif
  }
}
