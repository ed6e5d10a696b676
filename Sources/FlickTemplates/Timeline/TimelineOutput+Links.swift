import FlickMotion
import FlickScene

extension TimelineOutput {
  /// Adds a link to the tracks and its curve to the scene (rebuilt over the final tracks by
  /// ``finishLinks()``), checking time order like ``add(_:layerID:curve:begin:node:)``.
  mutating func addLink(_ link: some TrackLink, node: TemplateNode, sourceNode: TemplateNode)
    throws(TemplateError)
  {
    guard links.count < LinkWriter.linkLimit else {
      throw node.error("a template may have at most \(LinkWriter.linkLimit) links")
    }
    try checkAnimationCount(node)
    try checkOrder(link.property.name, layerID: link.layerID, begin: link.begin, node: node)
    do {
      try tracks.append(link)
    } catch {
      switch error {
      case .cycle(let names):
        throw sourceNode.error(
          "links form a cycle: \(names.joined(separator: " ← ")) (each follows the next, so \(quoted: names[0]) would follow itself)"
        )
      case .tooDeep(let chain, let limit):
        throw sourceNode.error(
          "this link makes a chain of \(chain.count - 1) links (\(quoted: chain.joined(separator: " ← "))), more than the \(limit) "
            + "a property may follow in a row")
      }
    }
    recordAdded(link.property.name, layerID: link.layerID, begin: link.begin, node: node, isLink: true)
    let make: (PropertyTracks) -> LayerAnimation = { tracks in
      LayerAnimation(
        layerID: link.layerID, property: link.property, curve: tracks.curve(for: link), beginTime: link.begin)
    }
    links.append(LinkBuilder(index: animations.count, make: make))
    animations.append(make(tracks))
  }

  /// Rebuilds every link's curve over the finished tracks, so each reads every animation of its
  /// source (also those listed after the link). Called once the timeline is compiled.
  mutating func finishLinks() {
    for builder in links { animations[builder.index] = builder.make(tracks) }
  }

  /// Records that compiling read `name` of `layerID` at `t` (a hand-over), so that a later
  /// entry changing a property that read went through a link is refused
  /// (``checkLinkReads(_:layerID:begin:node:)``).
  mutating func noteLinkReads(_ name: String, layerID: String, at t: Double) {
    guard !links.isEmpty else { return }
    log(
      tracks.linkReads(of: name, layerID: layerID, at: t, limit: .handOver),
      reader: "\(quoted: layerID).\(quoted: name)")
  }

  /// Records that compiling read the whole motion of `name` on `layerID` before `t` (an
  /// autoreversing repeat plays it backwards from `t`), through whichever links were active.
  mutating func noteLinkReads(_ name: String, layerID: String, before t: Double) {
    guard !links.isEmpty else { return }
    log(tracks.linkReads(of: name, layerID: layerID, before: t), reader: "\(quoted: layerID).\(quoted: name)")
  }

  private mutating func log(_ reads: [LinkRead], reader: String) {
    for read in reads {
      let key = "\(read.layerID).\(read.name)"
      if let known = linkReadLog[key],
        known.read.time > read.time || (known.read.time == read.time && known.read.includesBegin)
      {
        continue
      }
      linkReadLog[key] = (read, reader, currentEntryPath)
    }
  }

  /// Refuses a new animation of `name` on `layerID` from `begin` that would change a value an
  /// entry above already took over through a link: the compiled motion would jump there.
  func checkLinkReads(_ name: String, layerID: String, begin: Double, node: TemplateNode) throws(TemplateError) {
    guard !linkReadLog.isEmpty else { return }
    for related in AnyLayerProperty.overlapping(name) {
      guard let logged = linkReadLog["\(layerID).\(related)"], logged.read.isChanged(byBegin: begin) else { continue }
      throw node.error(
        "this animation of \(quoted: layerID).\(quoted: name) starts at \(TemplateNode.format(begin)) s, but \(quoted: logged.reader) follows it "
          + "through a link and the entry at \(quoted: logged.path) already took over that value at "
          + "\(TemplateNode.format(logged.read.time)) s; list this entry above that one")
    }
  }
}
