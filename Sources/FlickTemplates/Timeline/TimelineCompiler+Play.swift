extension TimelineCompiler {
  /// `{ at: 2.4, play: "wifi" }`: the timeline of the component instance `wifi` (a layer with
  /// `use:`), played as a group from the entry's begin time; `repeat` and `autoreverses` loop it;
  /// `params` substitute it again with other values of the component's parameters.
  ///
  /// Its entries name the component's own layers and entry ids, qualified by the instance
  /// (``TimelineSchedule/namespace``): `knob` is `wifi/knob`, an entry `tap` is `wifi/tap` (so the template's
  /// timeline can say `after: "wifi/tap"`). Each play defines those entry ids anew: they name the
  /// latest play. Every animation it adds takes over from what the layers are doing at its start,
  /// value and velocity, as any entry does.
  mutating func play(_ o: [String: TemplateNode], _ node: TemplateNode, begin: Double) throws(TemplateError) -> Span {
    guard let n = o["play"] else { return Span(begin: begin, end: begin) }
    let written = try n.string()
    let id = schedule.namespace + written
    guard let instance = schedule.instances[id] else {
      var message = "no component instance with id '\(quoted: written)'"
      if schedule.layerIDs.contains(id) {
        message += "; '\(quoted: written)' is a layer, but not a component instance ('play' names a layer with 'use:')"
      } else if schedule.instances.isEmpty {
        message += "; the template has no component instances (layers with 'use:')"
      } else if let guess = TemplateNode.closest(to: written, in: schedule.visible(schedule.instances.keys)) {
        message += "; did you mean '\(escaped: guess)'?"
      }
      throw n.error(message)
    }
    guard let timeline = instance.timeline else {
      throw n.error(
        "'\(quoted: written)' is an instance of '\(quoted: instance.component)', which has no "
          + "timeline to play")
    }
    var played = timeline
    if let params = o["params"] { played = try replayed(instance, params: params) }
    let entries = try played.array()
    schedule.forgetSpans(except: schedule.spanIDs.filter { !$0.hasPrefix(instance.namespace) })
    let outer = schedule.namespace
    let outerTiming = schedule.groupTiming
    schedule.namespace = instance.namespace
    // A component's timeline keeps its own timing: a group around the play gives it none.
    schedule.groupTiming = GroupTiming()
    defer {
      schedule.namespace = outer
      schedule.groupTiming = outerTiming
    }
    return try repeating(o, node, begin: begin) { c, start throws(TemplateError) in
      var end = start
      for child in entries { end = max(end, try c.entry(child, placement: .group(begin: start)).end) }
      return Span(begin: start, end: end)
    }
  }

  /// The instance's timeline substituted again with `params` over the instance's values (a
  /// play's own parameters: `{ play: "wifi", params: { on: 1 } }` flips the switch back). The
  /// layers keep the instance's values; only this play's entries change. Counted against
  /// ``TemplateLimits/maximumExpandedBytes`` with every other such play.
  private mutating func replayed(_ instance: ComponentInstance, params: TemplateNode) throws(TemplateError)
    -> TemplateNode
  {
    guard let component = instance.definition, let written = instance.writtenTimeline else {
      throw params.error(
        "'params' change the timeline of '\(quoted: instance.component)', and it has none of its own (only its instances' plays)"
      )
    }
    let scope = try component.scope(given: params, outer: instance.values, instance: params, keepingOuter: true)
    let value = try Template.substitute(written, values: scope, budget: &schedule.replayBudget)
    let substituted = written.with(value: value)
    return try ComponentExpander.timeline(substituted, plays: instance.innerPlays, path: written.path, in: substituted)
      ?? substituted
  }
}
