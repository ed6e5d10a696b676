/// The description of the error `body` throws (what a command prints), or nil when it returns:
/// for tests that compare a refusal's exact message.
package func thrownDescription<E: Error & CustomStringConvertible>(_ body: () throws(E) -> Void) -> String? {
  do {
    try body()
    return nil
  } catch {
    return error.description
  }
}
