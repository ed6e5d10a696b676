#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Pixel memory for one worker's intermediate surfaces (gradients, shadow masks, 3D planes),
/// handed back and reused from frame to frame instead of being allocated and freed each time.
///
/// Without it every frame of an animated scene allocates and frees a few megabytes of surfaces
/// of slightly different sizes, which glibc serves from its heap (its mmap threshold rises to
/// the largest block freed) and fragments: a long render then creeps up in resident memory.
/// With it the memory a worker holds follows the largest set of intermediates one frame needs.
///
/// A block is zeroed when it is taken, so a surface made from it starts exactly like one from
/// `cairo_image_surface_create`. Blocks given back and not taken again during the next frame
/// are released, so memory follows the scene. Not thread-safe: one arena belongs to one worker
/// (a ``FrameRenderer``), or to one frame (``Renderer``).
final class PixelArena {
  /// One allocation of `capacity` bytes (a multiple of the page size), mapped directly from the
  /// system rather than taken from malloc's heap: blocks of many sizes coming and going would
  /// otherwise leave holes between the small allocations Pango and Swift make around them, and
  /// the heap would grow with the length of the render. An unmapped block goes straight back to
  /// the system. (Serving blocks under 256 KiB from malloc instead was tried: the benchmark's
  /// 1080p render then peaked at 105 MiB instead of 66.)
  ///
  /// The mapping is populated when it is made (`MAP_POPULATE`). Unpopulated, Cairo's first
  /// read of a fresh surface (compositing OVER a transparent one) maps the shared zero page,
  /// and the write that follows faults again to replace it, which with two workers running
  /// flushes the other core's TLB by interrupt: card-swap spent 0.3–0.6 s of system time in
  /// 54,000 faults on 186 frames, and 2 workers were only 1.14× faster than one. Populated,
  /// 9,700 faults in all and 0.1–0.2 s (`perf` of `flick render card-swap --null`).
  final class Block {
    let bytes: UnsafeMutableRawPointer
    let capacity: Int
    /// The frame in which the block was last taken or given back.
    fileprivate(set) var lastUsed: Int

    fileprivate init?(capacity: Int, frame: Int) {
      let mapped = mmap(nil, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0)
      guard let mapped, mapped != MAP_FAILED else { return nil }
      self.bytes = mapped
      self.capacity = capacity
      self.lastUsed = frame
    }

    deinit { munmap(bytes, capacity) }
  }

  /// How blocks were obtained since the arena was made.
  struct Statistics: Equatable {
    /// Requests served by a block given back earlier.
    var reused = 0
    /// Requests that needed a new allocation.
    var allocated = 0
    /// Free blocks released because the frame after they were given back did not use them.
    var released = 0
    /// Bytes held now (blocks in use and free), at most so far, and allocated in all.
    var heldBytes = 0
    var peakHeldBytes = 0
    var allocatedBytes = 0
  }

  private var freeBlocks: [Block] = []
  private var frame = 0
  private(set) var statistics = Statistics()

  /// Bytes held in blocks nobody is using.
  var freeBytes: Int { freeBlocks.reduce(0) { $0 + $1.capacity } }

  /// A block of at least `count` bytes whose first `count` bytes are zero (nil when the system
  /// has no memory left). A free block is reused when it wastes at most about half of `count`
  /// (best fit); new blocks are rounded up to a size class (at most 1/8 more), so a surface
  /// that grows a little from frame to frame keeps fitting in the block it used before.
  func take(_ count: Int) -> Block? {
    let limit = count + count / 2 + 65536
    var best: Int?
    for (i, block) in freeBlocks.enumerated() where block.capacity >= count && block.capacity <= limit {
      if best.map({ block.capacity < freeBlocks[$0].capacity }) ?? true { best = i }
    }
    if let best {
      let block = freeBlocks.remove(at: best)
      statistics.reused += 1
      block.bytes.initializeMemory(as: UInt8.self, repeating: 0, count: count)
      block.lastUsed = frame
      return block
    }
    // Nothing fits. The largest free block that is too small is most likely the one this
    // surface outgrew (a layer scaling up): release it now rather than hold both.
    if let outgrown = freeBlocks.indices.filter({ freeBlocks[$0].capacity < count })
      .max(by: { freeBlocks[$0].capacity < freeBlocks[$1].capacity })
    {
      statistics.heldBytes -= freeBlocks[outgrown].capacity
      statistics.released += 1
      freeBlocks.remove(at: outgrown)
    }
    // Fresh mappings read as zero.
    guard let block = Block(capacity: Self.sizeClass(count), frame: frame) else { return nil }
    statistics.allocated += 1
    statistics.heldBytes += block.capacity
    statistics.peakHeldBytes = max(statistics.peakHeldBytes, statistics.heldBytes)
    statistics.allocatedBytes += block.capacity
    return block
  }

  /// Returns a block for reuse; nothing may touch its bytes afterwards.
  func give(_ block: Block) {
    block.lastUsed = frame
    freeBlocks.append(block)
  }

  /// Starts a frame.
  func beginFrame() { frame += 1 }

  /// Releases free blocks that were neither taken nor given back during this frame: a block
  /// given back in one frame is kept through the next one only.
  func endFrame() {
    let idle = freeBlocks.filter { $0.lastUsed < frame }
    guard !idle.isEmpty else { return }
    freeBlocks.removeAll { $0.lastUsed < frame }
    statistics.released += idle.count
    statistics.heldBytes -= idle.reduce(0) { $0 + $1.capacity }
  }

  /// `count` rounded up to a multiple of 4 KiB and of an eighth of its highest power of two.
  static func sizeClass(_ count: Int) -> Int {
    let page = 4096
    guard count > page else { return page }
    let high = 1 << (Int.bitWidth - 1 - (count - 1).leadingZeroBitCount)
    let step = max(page, high / 8)
    return (count + step - 1) / step * step
  }
}
