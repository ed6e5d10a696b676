import FlickExpectations
import Testing

@testable import FlickMotion

/// `DecimalText.format`, the one formatter of numbers for people (`flick info`, the studio's
/// timeline labels, `flick curve`'s axes, render sizes): at most the decimals asked for, and never
/// a bare trailing point (`3.`, which `flick info` printed for 2.9999) or `-0`.
@Suite struct DecimalTextTests {
  @Test func valuesThatRoundToWholeNumbersHaveNoPoint() {
    expectEqual(DecimalText.format(2.9999), "3")
    expectEqual(DecimalText.format(1.9999), "2")
    expectEqual(DecimalText.format(0.9999), "1")
    expectEqual(DecimalText.format(1.0001), "1")
    expectEqual(DecimalText.format(99.9999), "100")
    expectEqual(DecimalText.format(-1.9999), "-2")
    expectEqual(DecimalText.format(1.996, decimals: 2), "2")
  }

  @Test func valuesThatRoundToZeroAreZeroWithoutASign() {
    expectEqual(DecimalText.format(-0.0001), "0")
    expectEqual(DecimalText.format(-0.0), "0")
    expectEqual(DecimalText.format(0.0004), "0")
    expectEqual(DecimalText.format(-0.004, decimals: 2), "0")
    expectEqual(DecimalText.format(-0.4, decimals: 0), "0")
  }

  @Test func decimalsKeepTheirDigitsWithoutTrailingZeros() {
    expectEqual(DecimalText.format(2.5004), "2.5")
    expectEqual(DecimalText.format(0.25), "0.25")
    expectEqual(DecimalText.format(1.3333), "1.333")
    expectEqual(DecimalText.format(-0.5), "-0.5")
    expectEqual(DecimalText.format(3), "3")
    expectEqual(DecimalText.format(1.256, decimals: 2), "1.26")
    expectEqual(DecimalText.format(1e20), "100000000000000000000")
    expectEqual(DecimalText.format(.infinity), "inf")
  }
}
