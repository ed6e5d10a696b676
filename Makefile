# Flick — two commands: `make demo` renders a preview, `make test` runs the tests.
# Both install missing system packages first (scripts/bootstrap).

SWIFT ?= swift
OUT ?= out
FLICK_RELEASE = .build/release/flick

.PHONY: demo test build release bootstrap clean bench bench-video

bootstrap:
	@scripts/bootstrap

build: bootstrap
	$(SWIFT) build

release: bootstrap
	$(SWIFT) build -c release --product flick

demo: release
	@mkdir -p $(OUT)
	$(FLICK_RELEASE) render Templates/hello.json5 -o $(OUT)/hello.mp4 -o $(OUT)/hello.gif
	@echo "Rendered $(OUT)/hello.mp4 and $(OUT)/hello.gif"

test: bootstrap
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

clean:
	rm -rf .build $(OUT)

bench-video: bootstrap
	Benchmarks/video/run.sh
