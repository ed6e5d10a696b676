/// Carries a value into concurrent work the caller has made safe (each task touches disjoint
/// indices of a buffer that outlives the work).
struct UncheckedSendable<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
