import FlickMotion

/// Objects made from files, by path, that must not be used from two threads at once (an rlottie
/// animation, a librsvg handle): each file is read once (its result, failure included, is
/// cached), and every user borrows an object of its own, made from the file on first use and
/// reused after it is given back.
final class ResourcePool<File, Resource>: Sendable {
  private struct State {
    var files: [String: Result<File, RasterError>] = [:]
    var idle: [String: [Resource]] = [:]
  }

  private let state = Locked(State())
  private let read: @Sendable (String) -> Result<File, RasterError>
  private let make: @Sendable (File, String) throws(RasterError) -> Resource

  /// - Parameters:
  ///   - read: Reads and checks the file at a path (called outside the lock).
  ///   - make: Makes an object from a file read and its path.
  init(
    read: @escaping @Sendable (String) -> Result<File, RasterError>,
    make: @escaping @Sendable (File, String) throws(RasterError) -> Resource
  ) {
    self.read = read
    self.make = make
  }

  /// The file at `path` as read and checked (read now on first use, then cached).
  func file(_ path: String) -> Result<File, RasterError> {
    if let known = state.withLock({ $0.files[path] }) { return known }
    let result = read(path)
    state.withLock { $0.files[path] = result }
    return result
  }

  /// Runs `body` with an object for `path` that nobody else uses meanwhile.
  func withResource<T>(_ path: String, _ body: (Resource) throws(RasterError) -> T) throws(RasterError) -> T {
    let resource = try take(path)
    defer { give(resource, path) }
    return try body(resource)
  }

  private func take(_ path: String) throws(RasterError) -> Resource {
    if let idle = state.withLock({ $0.idle[path]?.popLast() }) { return idle }
    return try make(try file(path).get(), path)
  }

  private func give(_ resource: Resource, _ path: String) {
    state.withLock { $0.idle[path, default: []].append(resource) }
  }
}
