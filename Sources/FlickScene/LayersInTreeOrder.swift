/// The layers of a tree in tree order, masks included: each layer, then its sublayers' trees in
/// order, then its mask's tree. The order a template's layers are written in, so a scan for the
/// first problem reports the one that comes first in the file.
///
///     for layer in LayersInTreeOrder(tree.layers) where layer.text != nil { … }
package struct LayersInTreeOrder: Sequence, IteratorProtocol {
  /// What is left to visit, the next one last.
  private var stack: [Layer]

  package init(_ layers: [Layer]) { stack = layers.reversed() }

  package mutating func next() -> Layer? {
    guard let layer = stack.popLast() else { return nil }
    if let mask = layer.mask { stack.append(mask) }
    stack.append(contentsOf: layer.sublayers.reversed())
    return layer
  }
}
