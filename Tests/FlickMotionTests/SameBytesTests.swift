import FlickExpectations
import FlickTestSupport
import Testing

/// `SameBytes` (FlickTestSupport), which the frame-comparing suites use instead of `==`: the same
/// answer as `==` on equal buffers, on a single byte changed anywhere, on other lengths and on
/// lists of buffers.
@Suite struct SameBytesTests {
  @Test func agreesWithEqualityOnRandomBuffers() {
    var random = SeededGenerator(seed: 7)
    for count in [0, 1, 3, 64, 1000] {
      let a = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      #expect(SameBytes.equal(a, a))
      for index in [0, count / 2, count - 1] where index >= 0 && count > 0 {
        var b = a
        b[index] &+= 1
        #expect(!SameBytes.equal(a, b), "\(count) bytes, byte \(index) changed")
        expectEqual(SameBytes.equal(a, b), (a == b))
      }
      #expect(!SameBytes.equal(a, a + [0]))
      #expect(!SameBytes.equal(a + [0], a))
    }
  }

  @Test func listsOfBuffers() {
    let frames: [[UInt8]] = [[1, 2, 3], [], [4]]
    #expect(SameBytes.equal(frames, frames))
    #expect(!SameBytes.equal(frames, [[1, 2, 3], [], [5]]))
    #expect(!SameBytes.equal(frames, Array(frames.prefix(2))))
    #expect(!SameBytes.equal([[1, 2], [3]], [[1], [2, 3]]))
  }
}
