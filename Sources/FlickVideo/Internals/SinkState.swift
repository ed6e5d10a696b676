/// Where a sink is in the two-phase commit (``FrameSink``): taking frames, finished into
/// temporaries, committed into place, or aborted (its temporaries removed).
enum SinkState {
  case running, finished, committed, aborted
}
