/// The order of the animations of every layer property as the timeline lists them.
///
/// Animations apply in list order, so a later start must come later in the list. A repeat
/// unrolls its loop into runs listed one after another; the runs after the first are *reruns*.
/// A later entry that starts while the loop is going interrupts it, as it would interrupt the
/// same loop written on one animation (`repeatCount`): the reruns of that property that begin
/// after it are cut, and nothing else is. Any other animation listed above that begins later is
/// an order error, blamed on that animation (never on a run the repeat expanded).
struct AnimationOrder {
  /// One animation in the list.
  struct Entry {
    /// Scene seconds.
    var begin: Double
    /// The JSON path of the entry that added it.
    var path: String
    /// Its index in the compiler's list of animations.
    var index: Int
  }

  /// What a new animation from some time means for the animations of one property listed above.
  enum Verdict {
    /// Nothing listed above begins later.
    case inOrder
    /// Only reruns of a loop begin later: they are cut (indices into the list of animations).
    case interrupts([Entry])
    /// This animation, listed above and not a rerun, begins later.
    case outOfOrder(Entry)
  }

  /// Per `layer.property`: the last animation that is not a rerun.
  private var fixed: [String: Entry] = [:]
  /// Per `layer.property`: the reruns listed after ``fixed``, in list (and begin) order.
  private var reruns: [String: [Entry]] = [:]

  /// What an animation of `key` from `begin` means for those listed above.
  func verdict(_ key: String, begin: Double) -> Verdict {
    let later = (reruns[key] ?? []).filter { $0.begin > begin }
    if let anchor = fixed[key], anchor.begin > begin { return .outOfOrder(anchor) }
    return later.isEmpty ? .inOrder : .interrupts(later)
  }

  /// Notes an animation of `key`; `rerun` when a repeat adds it after its first run.
  mutating func record(_ key: String, _ entry: Entry, rerun: Bool) {
    if rerun {
      reruns[key, default: []].append(entry)
    } else {
      fixed[key] = entry
      reruns[key] = nil
    }
  }

  /// Forgets the reruns of `key` that begin after `begin` (an interruption cut them).
  mutating func cut(_ key: String, after begin: Double) {
    reruns[key]?.removeAll { $0.begin > begin }
  }
}
