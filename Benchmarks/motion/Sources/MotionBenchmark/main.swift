import FlickMotion

/// Times `body` (which returns a checksum so the work cannot be optimised away) and reports
/// operations per second over the best of `repeats` runs.
func measure(_ name: String, operations: Int, repeats: Int = 5, _ body: () -> Double) {
  let clock = ContinuousClock()
  var best = Duration.seconds(1_000_000)
  var checksum = 0.0
  for _ in 0..<repeats {
    let elapsed = clock.measure { checksum += body() }
    best = min(best, elapsed)
  }
  let seconds = Double(best.components.seconds) + Double(best.components.attoseconds) * 1e-18
  let rate = Double(operations) / seconds
  let label = name.padding(toLength: 44, withPad: " ", startingAt: 0)
  print(
    "\(label) \(format(rate / 1e6)) M/s   (\(format(seconds * 1e3)) ms for \(operations), checksum \(checksum.isFinite ? "ok" : "nan"))"
  )
}

func format(_ v: Double) -> String {
  let r = (v * 100).rounded() / 100
  return String(r)
}

let n = 10_000_000
let times = (0..<1024).map { Double($0) / 1024 * 0.8 }

let under = SpringAnimation(from: 0.0, to: 100, velocity: 0, parameters: .popDefault, restThreshold: 1e-9)
measure("spring value(at:), underdamped (Double)", operations: n) {
  var s = 0.0
  for i in 0..<n { s += under.value(at: times[i & 1023]) }
  return s
}
let critical = SpringAnimation(
  from: 0.0, to: 100, parameters: SpringParameters(mass: 1, stiffness: 100, damping: 20), restThreshold: 1e-9)
measure("spring value(at:), critically damped", operations: n) {
  var s = 0.0
  for i in 0..<n { s += critical.value(at: times[i & 1023]) }
  return s
}
let over = SpringAnimation(
  from: 0.0, to: 100, parameters: SpringParameters(mass: 1, stiffness: 100, damping: 60), restThreshold: 1e-9)
measure("spring value(at:), overdamped", operations: n) {
  var s = 0.0
  for i in 0..<n { s += over.value(at: times[i & 1023]) }
  return s
}
let point = SpringAnimation(
  from: Point(x: 0, y: 0), to: Point(x: 100, y: 50), parameters: .popDefault, restThreshold: 1e-9)
measure("spring value(at:), Point", operations: n) {
  var s = 0.0
  for i in 0..<n { s += point.value(at: times[i & 1023]).x }
  return s
}
let decay = DecayAnimation(from: 0.0, velocity: 1000)
measure("decay value(at:)", operations: n) {
  var s = 0.0
  for i in 0..<n { s += decay.value(at: times[i & 1023] * 3) }
  return s
}
let tween = BasicAnimation(from: 0.0, to: 100, duration: 0.8, timingFunction: .easeInEaseOut)
measure("tween value(at:), easeInEaseOut bezier", operations: n / 4) {
  var s = 0.0
  for i in 0..<(n / 4) { s += tween.value(at: times[i & 1023]) }
  return s
}
let bounce = BasicAnimation(from: 0.0, to: 100, duration: 0.8, timingFunction: .bounce(.out))
measure("tween value(at:), bounceOut", operations: n) {
  var s = 0.0
  for i in 0..<n { s += bounce.value(at: times[i & 1023]) }
  return s
}

// 10 000 running animations (springs, decays and tweens on different keys), one frame.
struct Model: Sendable { var values = [Double](repeating: 0, count: 10_000) }
var animator = Animator(model: Model())
let setupClock = ContinuousClock()
let setup = setupClock.measure {
  for i in 0..<10_000 {
    let key = AnimationKey(object: "item\(i)", key: "value")
    let property = AnimatableProperty<Model, Double>(
      name: "value", read: { $0.values[i] }, write: { $0.values[i] = $1 })
    let start = Double(i % 100) / 1000
    switch i % 3 {
    case 0:
      _ = try? animator.spring(key, property: property, to: Double(i), parameters: .popDefault, at: start)
    case 1:
      _ = try? animator.add(key, property: property, curve: DecayAnimation(from: 0.0, velocity: Double(i)), at: start)
    default:
      _ = try? animator.add(
        key, property: property, curve: BasicAnimation(from: 0.0, to: 1, duration: 1, timingFunction: .easeOut),
        at: start)
    }
  }
}
print("schedule 10 000 animations: \(setup)")
let replay = setupClock.measure { _ = animator.sample(at: 0) }
print("first sample (replays the script once): \(replay)")
// Events need each animation's reach-target time, found on first use (a few hundred samples).
var eventCount = 0
let firstEvents = setupClock.measure { eventCount = animator.events(after: -.infinity, through: 10).count }
print("first events(after:through:) over all 10 000 (finds every reach time): \(firstEvents), \(eventCount) events")
let againEvents = setupClock.measure { eventCount = animator.events(after: -.infinity, through: 10).count }
print("the same events again: \(againEvents)")
var bestFrame = Duration.seconds(1000)
var check = 0.0
for i in 0..<20 {
  let d = setupClock.measure { check += animator.sample(at: 0.25 + Double(i) / 600).values[4242] }
  bestFrame = min(bestFrame, d)
}
let frameSeconds = Double(bestFrame.components.seconds) + Double(bestFrame.components.attoseconds) * 1e-18
print(
  "sample 10 000 running animations for one frame: \(format(frameSeconds * 1e3)) ms (\(format(frameSeconds / 10_000 * 1e9)) ns each, checksum \(check.isFinite ? "ok" : "nan"))"
)
