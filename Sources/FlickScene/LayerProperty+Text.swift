import FlickMotion

extension LayerProperty where Value == Double {
  /// `number` of a text layer: the value its text shows through the layer's `format`
  /// (``TextContent/numberFormat``, default `%.0f`). Animate it with any curve: a spring from 3
  /// to 4 shows 3, then 4, rounding its overshoot as the format says. Reads 0 on a text layer
  /// that shows a plain string.
  public static let number = LayerProperty(
    name: "number", threshold: 0.001, read: { $0.text?.number ?? 0 },
    write: { l, v in l.withText { $0.show(number: v) } })
}

extension LayerProperty where Value == Double {
  /// The string of a text layer as a step function of time (a `set` with `string:` or
  /// `keyframes` of strings, as `CATextLayer.string` changes in a transaction): the animated
  /// value is an index into `strings`, floored and clamped, so discrete keyframes of indices
  /// switch the string at their key times. Each such animation carries its own list; the
  /// string is not in the catalogue since it is not a continuous value.
  public static func string(choosingFrom strings: [String]) -> LayerProperty<Double> {
    string(choosingFrom: strings) { strings.firstIndex(of: $0) }
  }

  /// ``string(choosingFrom:)`` reading the layer's string through `indices`, each string's
  /// first index in `strings` (what `firstIndex(of:)` finds there): one look-up however many
  /// strings the layer shows. A layer's list of every string it shows is read at each text
  /// change with a transition; searching it there made n changes to distinct strings O(n²).
  public static func string(choosingFrom strings: [String], indices: [String: Int]) -> LayerProperty<Double> {
    string(choosingFrom: strings) { indices[$0] }
  }

  private static func string(
    choosingFrom strings: [String], index: @escaping @Sendable (String) -> Int?
  ) -> LayerProperty<Double> {
    LayerProperty(
      name: "string", threshold: 1,
      read: { layer in
        guard let s = layer.text?.string, let i = index(s) else { return 0 }
        return Double(i)
      },
      write: { l, v in
        guard !strings.isEmpty, v.isFinite else { return }
        let i = Int(max(0, min(Double(strings.count - 1), v.rounded(.down))))
        l.withText {
          $0.string = strings[i]
          $0.number = nil
        }
      })
  }
}
