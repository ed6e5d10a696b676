import CSpawn
import FlickExpectations
import Foundation
import Testing

@testable import FlickVideo

/// `MachineCPUs.usable` counts the affinity mask, which `activeProcessorCount` does not read:
/// a thread bound to one CPU (as `taskset -c 0` binds a process) counts one.
@Suite struct MachineCPUsTests {
  @Test func theMaskIsCountedAndABoundThreadCountsOne() async throws {
    #expect(MachineCPUs.usable >= 1 && MachineCPUs.usable <= ProcessInfo.processInfo.activeProcessorCount)
    expectEqual(Int(flick_usable_cpus()), MachineCPUs.usable)
    // On a thread of its own, bound to the first CPU of the mask (the test runner's threads keep
    // theirs). glibc declares the affinity calls only for _GNU_SOURCE, so they come by name.
    typealias Affinity = @convention(c) (Int32, Int, UnsafeMutableRawPointer) -> Int32
    let get = try #require(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "sched_getaffinity"))
    let set = try #require(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "sched_setaffinity"))
    let (getAffinity, setAffinity) = (unsafeBitCast(get, to: Affinity.self), unsafeBitCast(set, to: Affinity.self))
    let counted: Int32 = await withCheckedContinuation { continuation in
      let thread = Thread {
        // cpu_set_t: 1,024 bits.
        var mask = [UInt8](repeating: 0, count: 128)
        guard mask.withUnsafeMutableBytes({ getAffinity(0, 128, $0.baseAddress!) }) == 0,
          let byte = mask.firstIndex(where: { $0 != 0 })
        else { return continuation.resume(returning: -1) }
        var one = [UInt8](repeating: 0, count: 128)
        one[byte] = 1 << UInt8(mask[byte].trailingZeroBitCount)
        guard one.withUnsafeMutableBytes({ setAffinity(0, 128, $0.baseAddress!) }) == 0 else {
          return continuation.resume(returning: -2)
        }
        continuation.resume(returning: flick_usable_cpus())
      }
      thread.start()
    }
    expectEqual(counted, 1)
  }
}
