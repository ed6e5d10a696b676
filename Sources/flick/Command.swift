extension Flick {
  /// One subcommand of `flick`: its name, the line `flick --help` shows for it, and what runs it.
  /// `Flick.commands` is the one list: dispatch, `--help` and "did you mean" all read it, so a new
  /// subcommand is one file (`Flick+Name.swift`) and one entry there.
  struct Command: Sendable {
    /// What the user types after `flick`.
    let name: String
    /// The usage shown in `flick --help`, e.g. `flick info TEMPLATE`.
    let synopsis: String
    /// One line on what it does.
    let summary: String
    /// Runs the command with the arguments after its name.
    let run: @Sendable ([String]) throws -> Void
  }

  /// Every subcommand, in the order `flick --help` lists them.
  static let commands: [Command] = [
    Command(
      name: "render", synopsis: "flick render TEMPLATE -o OUT.mp4 [-o OUT.gif]...",
      summary: "render every frame to each output", run: Render.run),
    Command(
      name: "still", synopsis: "flick still TEMPLATE --time S|--frame N|--at P% -o F.png",
      summary: "render one frame to a PNG", run: Still.run),
    Command(
      name: "info", synopsis: "flick info TEMPLATE", summary: "parameters, canvas, layers, timeline",
      run: Info.run),
    Command(
      name: "trace", synopsis: "flick trace TEMPLATE --layer ID --property NAME [--fps N]",
      summary: "value and velocity of a property over time", run: Trace.run),
    Command(
      name: "templates", synopsis: "flick templates", summary: "list the bundled templates", run: Templates.run),
    Command(
      name: "schema", synopsis: "flick schema", summary: "print the template format's JSON Schema",
      run: Schema.run),
    Command(
      name: "curve", synopsis: "flick curve SPEC [--from 0 --to 100] [--plot c.png]",
      summary: "print or plot an animation curve", run: Curve.run),
    Command(
      name: "snapshot", synopsis: "flick snapshot TEMPLATE --at 0,50%,end --out DIR",
      summary: "render golden frames + manifest.json", run: Snapshot.run),
    Command(
      name: "verify", synopsis: "flick verify TEMPLATE --against DIR [--report R]",
      summary: "compare frames with goldens", run: Verify.run),
    Command(
      name: "diff", synopsis: "flick diff A.png B.png | DIR_A DIR_B",
      summary: "compare images (pixelmatch-style)", run: Diff.run),
    Command(
      name: "accept", synopsis: "flick accept REPORT --against DIR",
      summary: "make a failed verify's frames the goldens", run: Accept.run),
    Command(
      name: "plan", synopsis: "flick plan MANIFEST -o plan.json", summary: "expand a batch manifest into jobs",
      run: PlanCommand.run),
    Command(
      name: "run", synopsis: "flick run plan.json [--shard I/N|auto]", summary: "run a share of a plan's jobs",
      run: RunCommand.run),
    Command(
      name: "merge", synopsis: "flick merge plan.json", summary: "join the chunks of long clips",
      run: MergeCommand.run),
    Command(
      name: "studio", synopsis: "flick studio [TEMPLATE... | FOLDER] [--port N] [--no-open]",
      summary: "live preview in the browser", run: Studio.run),
    Command(
      name: "status", synopsis: "flick status plan.json [--html FILE] [--watch]",
      summary: "where a plan stands, and a gallery", run: StatusCommand.run),
  ]
}
