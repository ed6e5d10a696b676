/// A property of a model `Root` that animations write: a name, read and write closures and a rest
/// threshold (Pop's `POPAnimatableProperty`). FlickScene's `LayerProperty` is the same idea for
/// one layer; an `AnimatableProperty` reaches into any model (a scene, a struct, a dictionary).
public struct AnimatableProperty<Root, Value: Animatable>: Sendable {
  /// Name for traces and messages (`position`, `opacity`, …).
  public let name: String
  /// A change smaller than this (Euclidean, value units) is invisible.
  public let threshold: Double
  /// Reads the property from the model.
  public let read: @Sendable (Root) -> Value
  /// Writes the property into the model.
  public let write: @Sendable (inout Root, Value) -> Void
  /// The names of the other properties ``write`` moves too (a GPUAnimation drive), if any.
  package var alsoWrites: [String] = []

  public init(
    name: String, threshold: Double = 0.01, read: @escaping @Sendable (Root) -> Value,
    write: @escaping @Sendable (inout Root, Value) -> Void
  ) {
    self.name = name
    self.threshold = threshold
    self.read = read
    self.write = write
  }
}

/// Identifies one running animation slot: an object and a key (Pop's `addAnimation:forKey:` on an object).
public struct AnimationKey: Hashable, Sendable, CustomStringConvertible {
  /// The animated object's identifier (a layer id, …).
  public var object: String
  /// The key under which the animation runs (often the property name).
  public var key: String

  public init(object: String, key: String) {
    self.object = object
    self.key = key
  }

  public var description: String { "\(escaped: object).\(escaped: key)" }
}

/// The state of a key at the instant a new animation takes it over: what the new animation
/// should start from to keep position and velocity continuous.
public struct Handoff<Value: Animatable>: Sendable {
  /// The value at the hand-over time.
  public var value: Value
  /// The velocity at the hand-over time, units per second (zero if nothing was running).
  public var velocity: Value
  /// The scene time of the hand-over, seconds.
  public var time: Double

  public init(value: Value, velocity: Value, time: Double) {
    self.value = value
    self.velocity = velocity
    self.time = time
  }
}
