# Flick — two commands: `make demo` renders a preview, `make test` runs the tests.
# Both install missing system packages first (scripts/bootstrap).

SWIFT ?= swift
OUT ?= out
FLICK_RELEASE = .build/release/flick

.PHONY: demo test build release bootstrap clean snapshots
.PHONY: bench-motion bench-raster bench-video bench-snapshot bench-compile

bootstrap:
	@scripts/bootstrap

build: bootstrap
	$(SWIFT) build

release: bootstrap
	SWIFT=$(SWIFT) scripts/swift-release --product flick

demo: release
	@mkdir -p $(OUT)
	$(FLICK_RELEASE) render Templates/hello.json5 -o $(OUT)/hello.mp4 -o $(OUT)/hello.gif
	@echo "Rendered $(OUT)/hello.mp4 and $(OUT)/hello.gif"

# One build (scripts/build-tests: one `swift build --build-tests`, so the test bundle, `flick`, the
# examples and the benchmark executables, which it only compiles) with the test dependencies
# installing beside it, then four jobs side by side
# (`make -j`, each job's output printed when it ends):
# the lint, the Swift tests (2–3 minutes on 2 cores, more in a slow hour of the VM), the Slurm
# test in a process of its own (about 40 s, mostly waiting on its daemons, which inside the main
# test process held one of the two cooperative threads of a 2-core machine) and the studio's
# browser tests (about 40 s; they need only the binary, so they do not wait for the Swift tests
# nor build `flick` again as `make test-studio` does).
TEST_JOBS = lint test-swift test-slurm test-browser
# scripts/build-tests builds into a tree of its own (each module compiled whole, in one job); the
# targets that run its tests name it: SWIFT_TEST, and the `flick` in it.
TEST_BUILD ?= .build/tests
export TEST_BUILD
SWIFT_TEST = $(SWIFT) test --skip-build --scratch-path $(TEST_BUILD)
TEST_FLICK = $(TEST_BUILD)/debug/flick
TEST_BUNDLE = $(TEST_BUILD)/debug/FlickPackageTests.xctest
test: bootstrap
	$(MAKE) --no-print-directory -j 2 test-build test-deps
	$(MAKE) --no-print-directory test-jobs

# TEST_JOBS side by side on the built tree (scripts/test-under-load runs them beside busy loops).
.PHONY: test-jobs
test-jobs:
	$(MAKE) --no-print-directory -j $(words $(TEST_JOBS)) --output-sync=target $(TEST_JOBS)

# The test build, and beside it the installs the later jobs need (scripts/test-deps: Slurm,
# Chromium, Playwright), which wait on the network while the compiler has the cores. A failed
# install does not stop the tests (the `-`): the jobs that need it install again or say why not.
.PHONY: test-build test-deps
test-build:
	SWIFT=$(SWIFT) scripts/build-tests
test-deps:
	-scripts/test-deps

.PHONY: lint format test-swift test-slurm test-browser api-check
# `swift format lint --strict` with the committed .swift-format (docs/design.md, "Code style and
# lint"); `make format` (scripts/format) rewrites the tree to it.
lint:
	SWIFT=$(SWIFT) scripts/lint

format:
	SWIFT=$(SWIFT) scripts/format

# The public API (docs/swift.md, "The public API") against a recorded baseline: SwiftPM builds
# the baseline revision in a scratch checkout, dumps both APIs with swift-api-digester and lists
# every breaking change (exit 1). API_BASELINE is the commit that set the current public list;
# move it, in the same change, when a break is intended. Builds the package twice: it works on
# Linux with Swift 6.3 (swift-api-digester ships with the toolchain); `--products FlickMotion`
# took 18 min of wall time on a busy 2-core machine ("No breaking changes detected"). The digester
# lists `package` declarations too (FFmpegCommand, FrameSink, RenderPipeline.run…), so a package
# refactor shows up here as well. Moved from b3b6294 to 7cddf6c on 2026-12-05: against b3b6294 it
# listed 62 items, all `package` but these public ones, each intended: Scene.fps's setter gone
# (5abf37a, one owner for the frame rate) and new enum cases (RasterError.textUnavailable,
# TextNumberFormat.Conversion.minutes and .hours).
API_BASELINE ?= 7cddf6c210fb0a60fc111d2600d3d17cfbc0983c
api-check: bootstrap
	$(SWIFT) package diagnose-api-breaking-changes $(API_BASELINE)

# The parts of `make test`, after scripts/build-tests. The Slurm test runs beside the other Swift
# tests from the same test bundle, started directly (TEST_BUNDLE), not through a second
# `swift test`: even with `--skip-build` each `swift test` loads and rewrites the build's llbuild
# description in .build, so two side by side (`--ignore-lock`) raced on it, and one crashed in
# swift-package with a bus error (seen 2026-12-07 from a clean clone). Without `--ignore-lock` the
# second waited for SwiftPM's lock until the first had ended. NO_COLOR keeps Swift Testing's
# lines plain for scripts/test-failures.
# Each job's failures are repeated at the end of its output, a line each (scripts/test-failures):
# CI logs are read from the tail.
# The Swift tests go through scripts/test-watchdog, which stops a run that hangs (no test starts or
# ends and nothing uses CPU for 5 minutes, or one test runs 30) and names the tests still running.
test-swift:
	scripts/test-failures scripts/test-watchdog $(SWIFT_TEST) --ignore-lock --skip SlurmTests
test-slurm:
	NO_COLOR=1 scripts/test-failures $(TEST_BUNDLE) --testing-library swift-testing --filter SlurmTests
test-browser:
	FLICK=$(TEST_FLICK) scripts/test-failures Tests/StudioBrowser/run

# `flick studio` in a real browser: Debian's Chromium driven by Playwright for Python (both
# installed by scripts/studio-test-deps when missing), against the real server on copies of
# templates (Tests/StudioBrowser/). studio-screenshots also writes docs/studio/*.png.
.PHONY: test-studio studio-screenshots bench-studio
test-studio: bootstrap
	$(SWIFT) build --product flick
	FLICK=.build/debug/flick Tests/StudioBrowser/run

studio-screenshots: bootstrap
	$(SWIFT) build --product flick
	STUDIO_SCREENSHOTS=docs/studio FLICK=.build/debug/flick Tests/StudioBrowser/run

# Scrub latency (request → decoded image in Chromium) against a cold `flick still`, sustained
# playback fps and memory while scrubbing, for card-swap at 960×540 (release build;
# Benchmarks/studio/README.md). STUDIO_BENCH_MINUTES=10 is the full memory run.
STUDIO_BENCH_MINUTES ?= 1
bench-studio: release
	scripts/studio-test-deps
	FLICK=$(FLICK_RELEASE) python3 Benchmarks/studio/bench.py --minutes $(STUDIO_BENCH_MINUTES)

# Re-record the template goldens (Tests/FlickSnapshotTests/__Snapshots__) after an intended change,
# delete orphaned ones, then verify them. See docs/snapshots.md.
snapshots: bootstrap
	SWIFT=$(SWIFT) scripts/build-tests
	-FLICK_RECORD=all $(SWIFT_TEST) --filter TemplateGoldenTests >/dev/null 2>&1
	FLICK_RECORD=none $(SWIFT_TEST) --filter TemplateGoldenTests

# Comparator speed on 1920×1080 frames versus rendering one (release build).
bench-snapshot: bootstrap
	SWIFT=$(SWIFT) scripts/swift-release --product flick-bench-snapshot
	SWIFT=$(SWIFT) scripts/swift-release --product flick
	.build/release/flick-bench-snapshot
	scripts/bench-verify-ratio

# Template compile time against the number of animated layers (release build).
bench-compile: bootstrap
	SWIFT=$(SWIFT) scripts/swift-release --product flick-bench-compile
	.build/release/flick-bench-compile

clean:
	rm -rf .build $(OUT)

# Raster benchmark: hand-written C card-swap renderer vs Flick (Benchmarks/raster/README.md).
# Pass options with BENCH_ARGS, e.g. make bench-raster BENCH_ARGS="--runs 3 --width 1280 --height 720".
bench-raster: bootstrap
	Benchmarks/raster/run.sh $(BENCH_ARGS)

# Damage regions at full size: every frame of every bundled template redrawn only where it differs
# from the worker's previous frame, byte-compared with whole frames (make test checks 1/4 size).
.PHONY: check-damage
check-damage: bootstrap
	SWIFT=$(SWIFT) scripts/build-tests
	FLICK_DAMAGE_CHECK=full $(SWIFT_TEST) --filter DamageTemplateTests

# Release-mode FlickMotion benchmark (separate package; not built by `make test`).
bench-motion:
	cd Benchmarks/motion && $(SWIFT) run -c release MotionBenchmark

# Video benchmark: flick render vs render-only vs ffmpeg-only, side by side (docs/video.md).
bench-video: bootstrap
	Benchmarks/video/run.sh

# The gallery: every showcase template to a GIF (480 px wide, 20 fps, under 2 MB: for the README)
# and an MP4, into docs/gallery/.
GALLERY = card-swap rotating-cover property-animator chained-sequence spring-gallery decay-flick lottie-spring motion-blur frosted-player follow-button swipe-deck settings-toggles pull-to-refresh
GALLERY_GIF = --gif-width 480 --gif-fps 20
.PHONY: gallery
gallery: release
	@mkdir -p docs/gallery
	@for t in $(GALLERY); do \
	  $(FLICK_RELEASE) render $$t -o docs/gallery/$$t.gif -o docs/gallery/$$t.mp4 $(GALLERY_GIF) --quiet || exit $$?; \
	  du -h docs/gallery/$$t.gif docs/gallery/$$t.mp4; \
	done

# The fuzzers at full size (docs/security.md), each case through the flick binary:
# - 3,000 seeded hostile templates (each must end with exit 0, 2 or 3, leave nothing behind and say
#   where a refusal is);
# - 1,000 hostile batch manifests through flick plan/run/merge (nothing outside their folder shown or
#   written);
# - 200 damaged chunk folders through `flick merge` (exit 0, 2 or 3; no outside image in any output);
# - 1,000 hostile Lottie files and SVG pictures (security cases must not show a victim file planted
#   outside).
# FUZZ_SEED picks the first seed; a failure names its seed.
.PHONY: fuzz
FUZZ_CASES ?= 3000
MANIFEST_FUZZ_CASES ?= 1000
CHUNK_FUZZ_CASES ?= 200
FUZZ_VECTOR_CASES ?= 1000
FUZZ_SEED ?= 1592652000
fuzz: bootstrap
	SWIFT=$(SWIFT) scripts/build-tests
	FLICK_FUZZ_CASES=$(FUZZ_CASES) FLICK_FUZZ_SEED=$(FUZZ_SEED) $(SWIFT_TEST) --filter HostileTemplateFuzzTests
	FLICK_MANIFEST_FUZZ_CASES=$(MANIFEST_FUZZ_CASES) FLICK_FUZZ_SEED=$(FUZZ_SEED) \
	  $(SWIFT_TEST) --filter HostileManifestFuzzTests
	FLICK_CHUNK_FUZZ_CASES=$(CHUNK_FUZZ_CASES) FLICK_FUZZ_SEED=$(FUZZ_SEED) $(SWIFT_TEST) --filter ChunkVerificationTests
	FLICK_FUZZ_VECTOR_CASES=$(FUZZ_VECTOR_CASES) FLICK_FUZZ_SEED=$(FUZZ_SEED) $(SWIFT_TEST) --filter HostileVectorFuzzTests
# Scale-out benchmark: a 48-job plan, max shard CPU / mean over 4 shards, and flick run's CPU
# against a plain loop of flick render over the same jobs (Benchmarks/scale/plan48.sh;
# docs/scale-out.md). Run it at full size on a quiet machine; BENCH_ENV="SIZES=0.25,0.125 REPEAT=1"
# checks that it works.
.PHONY: bench-scale bench-merge bench-merge-jobs bench-weights bench-overlap bench-many
bench-scale: bootstrap
	$(BENCH_ENV) Benchmarks/scale/plan48.sh
# flick run finishing jobs beside the next, against an older flick (BASELINE=path/to/flick) on the
# 48 jobs of Examples/batch, interleaved (Benchmarks/scale/overlap.sh; docs/scale-out.md).
bench-overlap: bootstrap
	Benchmarks/scale/overlap.sh
# Many small jobs: N one-frame PNG jobs through flick run, where the per-job costs outside the render
# show (the report before every job, stamps, commits); BASELINE=path/to/flick compares
# (Benchmarks/scale/many.sh; docs/scale-out.md).
bench-many: bootstrap
	Benchmarks/scale/many.sh
# x264's fixed thread count, and plan + shards + merge against one render (Benchmarks/scale/run.sh).
bench-merge: bootstrap
	Benchmarks/scale/run.sh
# flick merge one clip at a time against clips side by side, on Examples/batch's 48 clips in
# chunks (Benchmarks/scale/merge-jobs.sh; docs/scale-out.md).
bench-merge-jobs: bootstrap
	Benchmarks/scale/merge-jobs.sh
# The format weights of the shard cost model (Benchmarks/scale/weights.sh, release build).
bench-weights: release
	Benchmarks/scale/weights.sh
# Flick beside its peers (docs/benchmarks.md, "Peers"): Manim and ffmpeg alone on the card-swap
# motion; rlottie + ffmpeg and python-lottie on real Lottie files; GIF size and SSIM against
# ffmpeg's two passes and gifsicle. A subset: `make bench-peers PEERS="lottie gif"`; also REPEAT,
# TEMPLATES (gif part), MAXFRAMES (lottie part). Manim and python-lottie install into venvs from
# PyPI, pinned.
.PHONY: bench-peers
bench-peers: bootstrap
	PEERS="$(PEERS)" REPEAT="$(REPEAT)" TEMPLATES="$(TEMPLATES)" MAXFRAMES="$(MAXFRAMES)" \
	  Benchmarks/peers/run.sh
# docs/swift.md acceptance: a fresh package made of the guide's Package.swift and first example,
# depending on a clone of this repository by path, builds and renders (rebuilds the package: ~2+ min).
.PHONY: test-guide
test-guide: bootstrap
	scripts/test-guide

# One Animator with 40 animated properties against 40 per-layer animations, per frame (release).
.PHONY: bench-scene-animator
bench-scene-animator: bootstrap
	SWIFT=$(SWIFT) scripts/swift-release --product flick-bench-scene-animator
	.build/release/flick-bench-scene-animator

# An MP4's BGRA -> yuv420p conversion by Flick against ffmpeg's scale step, per frame (release).
.PHONY: bench-yuv
bench-yuv: bootstrap
	SWIFT=$(SWIFT) scripts/swift-release --product flick-bench-yuv
	.build/release/flick-bench-yuv

# Links and text changes against card-swap as bundled, per frame (release).
.PHONY: bench-links
bench-links: bootstrap
	SWIFT=$(SWIFT) scripts/swift-release --product flick-bench-links
	.build/release/flick-bench-links

# flick still of every bundled template: wall and CPU medians, alternating with BASELINE (an older
# flick) when given, whose PNGs must then be byte-identical (docs/benchmarks.md, "Stills").
.PHONY: bench-stills
STILLS_RUNS ?= 15
bench-stills: release
	python3 Benchmarks/stills/stills.py --runs $(STILLS_RUNS) --flick $(FLICK_RELEASE) $(if $(BASELINE),--baseline $(BASELINE))

# Every frame of every bundled template at full size, with and without the kept static prefix
# (forward, random order, three workers): the bytes must match (StaticPrefixTemplateTests).
.PHONY: fuzz-raster
fuzz-raster: bootstrap
	SWIFT=$(SWIFT) scripts/build-tests
	FLICK_RASTER_CHECK=full $(SWIFT_TEST) --filter StaticPrefixTemplateTests
