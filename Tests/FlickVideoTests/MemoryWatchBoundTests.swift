import FlickExpectations
import Foundation
import Testing

@testable import FlickVideo

/// The memory watch stops a render below the process's control-group limit when that is lower
/// than the cap (a container's limit, where the kernel would kill the process outright), and
/// says which bound it met.
@Suite struct MemoryWatchBoundTests {
  static let mib = 1 << 20

  @Test func theLowerOfTheCapAndTheGroupsLimitBounds() {
    let cap = 8 << 30
    #expect(MemoryWatch.bound(cap: cap, groupLimit: nil) == (cap, false))
    #expect(MemoryWatch.bound(cap: cap, groupLimit: 2 << 30) == (2 << 30, true))
    #expect(MemoryWatch.bound(cap: 1 << 30, groupLimit: 2 << 30) == (1 << 30, false))
    #expect(MemoryWatch.bound(cap: cap, groupLimit: 0) == (cap, false))
  }

  @Test func theMessageNamesTheBoundItMet() {
    let capped = MemoryWatch.message(
      resident: 250 * Self.mib, bound: 300 * Self.mib, margin: 64 * Self.mib, byGroup: false)
    #expect(capped.contains("within 64 MiB of the memory cap of 300 MiB (--max-memory"), "\(capped)")
    let grouped = MemoryWatch.message(resident: 2000 * Self.mib, bound: 2 << 30, margin: 64 * Self.mib, byGroup: true)
    #expect(grouped.contains("of the memory limit of this process's control group"), "\(grouped)")
    #expect(
      grouped.contains("2.0 GiB") && grouped.contains("--scale") && !grouped.contains("--max-memory"), "\(grouped)")
  }
}
