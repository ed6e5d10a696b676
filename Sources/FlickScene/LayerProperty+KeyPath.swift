import FlickMotion

extension LayerProperty {
  /// The property `property` of the layer `layerID`, as an animator of a ``LayerTree`` sees it.
  public func on(_ layerID: String) -> AnimatableProperty<LayerTree, Value> {
    AnimatableProperty.layer(layerID, self)
  }

  /// A property reached through a key path of ``Layer`` (`\.position`, `\.backgroundColor`,
  /// `\.transform.rotation`…). A key path of a catalogued property is that property: its name,
  /// threshold, reads and writes (`\.transform.scale` is ``LayerProperty/scaleXY``, so the two
  /// animate under one key). Any other key path takes the name from ``name(of:)`` and a
  /// threshold of 0.01 value units.
  public init(_ keyPath: WritableKeyPath<Layer, Value> & Sendable) {
    if case let property? = LayerPropertyDescriptor.catalogued(keyPath, as: Value.self) {
      self = property
      return
    }
    self.init(
      name: LayerKeyPathNames.name(of: keyPath), threshold: 0.01, read: { $0[keyPath: keyPath] },
      write: { layer, value in layer[keyPath: keyPath] = value })
  }

  /// The stable name of a key path of ``Layer``, from the property catalogue: the property's name
  /// for a catalogued one (`scaleXY` for `\Layer.transform.scale`), else the spelling built from
  /// the catalogue's paths and the value types' members (`bounds.origin.x`,
  /// `backgroundColor.alpha`, `colorMultiplier`). A key path none of these reach (a computed
  /// property of your own) is `keyPath#N`, numbered in first-use order; give it a name with
  /// ``init(name:threshold:read:write:)`` where traces must read well.
  public static func name(of keyPath: AnyKeyPath) -> String { LayerKeyPathNames.name(of: keyPath) }
}

extension LayerPropertyDescriptor {
  private static let byKeyPath: [LayerKeyPath: LayerPropertyDescriptor] = {
    var out: [LayerKeyPath: LayerPropertyDescriptor] = [:]
    for d in catalogue { if let path = d.keyPath?.path { out[LayerKeyPath(path)] = d } }
    return out
  }()

  /// The catalogued property reached by `keyPath`, typed as `Value`, or nil.
  static func catalogued<Value>(_ keyPath: AnyKeyPath, as _: Value.Type) -> LayerProperty<Value>? {
    guard let d = byKeyPath[LayerKeyPath(keyPath)] else { return nil }
    return d.property.typed(as: Value.self)
  }

  /// The descriptor reached by `keyPath`, or nil.
  package static func reached(by keyPath: AnyKeyPath) -> LayerPropertyDescriptor? { byKeyPath[LayerKeyPath(keyPath)] }
}

/// A key path as a dictionary key. Key paths are immutable once made, so sharing them between
/// threads is safe (the standard library does not mark `AnyKeyPath` `Sendable`).
struct LayerKeyPath: Hashable, @unchecked Sendable {
  let path: AnyKeyPath
  init(_ path: AnyKeyPath) { self.path = path }
}

/// Names of key paths of ``Layer`` that are not catalogued properties, derived from the
/// catalogue's key paths and the members of the value types.
enum LayerKeyPathNames {
  /// Key paths of ``Layer`` outside the catalogue that hold a whole animatable value.
  private static let roots: [(LayerKeyPath, String)] = [
    (LayerKeyPath(\Layer.colorMultiplier), "colorMultiplier"), (LayerKeyPath(\Layer.transform), "transform"),
    (LayerKeyPath(\Layer.bounds.origin), "bounds.origin"),
  ]

  /// The members of each value type a key path may continue into.
  private static let members: [(LayerKeyPath, String)] = [
    (LayerKeyPath(\Point.x), "x"), (LayerKeyPath(\Point.y), "y"), (LayerKeyPath(\Size.width), "width"),
    (LayerKeyPath(\Size.height), "height"), (LayerKeyPath(\Rect.origin), "origin"), (LayerKeyPath(\Rect.size), "size"),
    (LayerKeyPath(\Rect.origin.x), "origin.x"), (LayerKeyPath(\Rect.origin.y), "origin.y"),
    (LayerKeyPath(\Rect.size.width), "size.width"), (LayerKeyPath(\Rect.size.height), "size.height"),
    (LayerKeyPath(\Color.red), "red"), (LayerKeyPath(\Color.green), "green"), (LayerKeyPath(\Color.blue), "blue"),
    (LayerKeyPath(\Color.alpha), "alpha"),
  ]

  /// Every named key path: the catalogue's (under the property's name), the other roots, and
  /// each of them continued by each member its value type has.
  private static let table: [LayerKeyPath: String] = {
    var out: [LayerKeyPath: String] = [:]
    var bases: [(LayerKeyPath, String)] = roots
    for d in LayerPropertyDescriptor.catalogue {
      guard let path = d.keyPath else { continue }
      out[LayerKeyPath(path.path)] = d.name
      bases.append((LayerKeyPath(path.path), path.spelling))
    }
    for (path, name) in roots { out[path] = name }
    for (base, spelling) in bases {
      for (member, suffix) in members {
        guard let joined = base.path.appending(path: member.path), out[LayerKeyPath(joined)] == nil else { continue }
        out[LayerKeyPath(joined)] = spelling + "." + suffix
      }
    }
    return out
  }()

  private static let others = Locked<[LayerKeyPath: String]>([:])

  static func name(of keyPath: AnyKeyPath) -> String {
    let key = LayerKeyPath(keyPath)
    if let name = table[key] { return name }
    return others.withLock { names in
      if let name = names[key] { return name }
      let name = "keyPath#\(names.count + 1)"
      names[key] = name
      return name
    }
  }
}

extension AnyLayerProperty {
  /// The typed property, when its value type is `Value`.
  func typed<Value>(as _: Value.Type) -> LayerProperty<Value>? {
    switch self {
    case .double(let p): p as? LayerProperty<Value>
    case .point(let p): p as? LayerProperty<Value>
    case .size(let p): p as? LayerProperty<Value>
    case .rect(let p): p as? LayerProperty<Value>
    case .color(let p): p as? LayerProperty<Value>
    case .colors(let p): p as? LayerProperty<Value>
    }
  }
}
