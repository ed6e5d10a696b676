import FlickMotion

/// Template text made safe to print: the name template-side code (templates, batches, the
/// command line) uses for ``MessageText``, the one escaping function every message that echoes
/// input goes through (`quoted` to echo a value, capped at 200 scalars; `escaped` for text that
/// is already short; `list` for names).
///
/// ``TemplateError/description`` escapes its file, path and message, so every template
/// diagnostic is one line whatever a site forgot; the sites quote what they echo so that it is
/// also short.
package typealias TemplateText = MessageText
