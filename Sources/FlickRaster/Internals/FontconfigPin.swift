internal import CPango

/// The fontconfig rules Flick adds last to every configuration it uses, so that the machine's
/// and the user's font settings do not reach the pixels of text.
///
/// Text is drawn with grey antialiasing and no hinting (``TextLayout``'s Cairo font options),
/// but Cairo takes some settings from the font's fontconfig pattern over the options it is
/// given: a pattern with `rgba` set (a desktop's font settings in `~/.config/fontconfig`, or
/// Debian's `10-sub-pixel-rgb.conf` turned on with `dpkg-reconfigure fontconfig-config`) turned
/// grey antialiasing into subpixel, with colour fringes on every glyph (max channel difference
/// 112 on follow-button), and `antialias: false` turned it off. These rules run after every
/// other `target="font"` rule and assign the rendering settings their fixed values: antialias
/// on for outline fonts (a bitmap font such as Noto Color Emoji says it is not antialiased, and
/// Cairo draws its colour bitmaps only then), no subpixel order, no LCD filter, no hinting, no
/// autohinter. Which faces a family maps
/// to, and fontconfig's synthetic bold and oblique (`embolden`, `matrix`), stay the
/// configuration's: they choose a font's shapes, as installing other fonts does.
enum FontconfigPin {
  static let rules = """
    <?xml version="1.0"?>
    <!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
    <fontconfig>
      <match target="font">
        <test name="outline"><bool>true</bool></test>
        <edit name="antialias" mode="assign"><bool>true</bool></edit>
      </match>
      <match target="font">
        <edit name="rgba" mode="assign"><const>none</const></edit>
        <edit name="lcdfilter" mode="assign"><const>lcdnone</const></edit>
        <edit name="hinting" mode="assign"><bool>false</bool></edit>
        <edit name="hintstyle" mode="assign"><const>hintnone</const></edit>
        <edit name="autohint" mode="assign"><bool>false</bool></edit>
      </match>
    </fontconfig>
    """

  /// Adds ``rules`` to `config` (nil: the current configuration, which fontconfig must have
  /// loaded: `FcInit`), after its own rules; false when fontconfig refuses them.
  @discardableResult
  static func apply(to config: OpaquePointer?) -> Bool {
    // fontconfig 2.14 takes no null configuration here (it dereferences it).
    guard let config = config ?? FcConfigGetCurrent() else { return false }
    return rules.withCString { text in
      text.withMemoryRebound(to: FcChar8.self, capacity: rules.utf8.count + 1) {
        FcConfigParseAndLoadFromMemory(config, $0, 1) != 0
      }
    }
  }
}
