import FlickMotion

/// Objects made from files, by path, that must not be used from two threads at once (an rlottie
/// animation, a librsvg handle): each file is read once (its result, failure included, is
/// cached), and every user borrows an object of its own, made from the file on first use and
/// reused after it is given back. A file is read again when it changed on disk; each `read`
/// refuses a path that no longer leads where it was bound (``FileResolution``).
final class ResourcePool<File, Resource>: Sendable {
  private struct State {
    var files: [String: (signature: FileSignature?, file: Result<File, RasterError>)] = [:]
    var idle: [String: (signature: FileSignature?, resources: [Resource])] = [:]
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
    file(path, signature: FileSignature.of(path))
  }

  /// The file as read when it had `signature`, read again (and its idle resources dropped) when
  /// it changed on disk since (``FileSignature``).
  private func file(_ path: String, signature: FileSignature?) -> Result<File, RasterError> {
    if let known = state.withLock({ $0.files[path] }), known.signature == signature { return known.file }
    let result = read(path)
    state.withLock {
      $0.files[path] = (signature, result)
      if $0.idle[path]?.signature != signature { $0.idle[path] = (signature, []) }
    }
    return result
  }

  /// Runs `body` with an object for `path` that nobody else uses meanwhile.
  func withResource<T>(_ path: String, _ body: (Resource) throws(RasterError) -> T) throws(RasterError) -> T {
    let signature = FileSignature.of(path)
    let resource = try take(path, signature)
    defer { give(resource, path, signature) }
    return try body(resource)
  }

  private func take(_ path: String, _ signature: FileSignature?) throws(RasterError) -> Resource {
    let idle = state.withLock { s -> Resource? in
      guard s.idle[path]?.signature == signature else { return nil }
      return s.idle[path]?.resources.popLast()
    }
    if let idle { return idle }
    return try make(try file(path, signature: signature).get(), path)
  }

  /// Keeps `resource` for the next user, unless the file changed since it was made.
  private func give(_ resource: Resource, _ path: String, _ signature: FileSignature?) {
    state.withLock { s in
      if s.idle[path] == nil { s.idle[path] = (signature, []) }
      if s.idle[path]?.signature == signature { s.idle[path]?.resources.append(resource) }
    }
  }
}
