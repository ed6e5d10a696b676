// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "Flick",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "flick", targets: ["flick"]),
    .library(name: "FlickMotion", targets: ["FlickMotion"]),
    .library(name: "FlickScene", targets: ["FlickScene"]),
    .library(name: "FlickRaster", targets: ["FlickRaster"]),
    .library(name: "FlickVideo", targets: ["FlickVideo"]),
    .library(name: "FlickTemplates", targets: ["FlickTemplates"]),
    .library(name: "FlickSnapshot", targets: ["FlickSnapshot"]),
    .library(name: "FlickTesting", targets: ["FlickTesting"]),
    .library(name: "FlickBatch", targets: ["FlickBatch"]),
  ],
  targets: [
    // MARK: - Public API

    /// Pure animation math: values, curves, springs, decay, timing, animators.
    .target(name: "FlickMotion"),
    /// The layer tree and immutable render-tree snapshots.
    /// Optimised in every build, like FlickRaster: every frame of every test walks and copies its
    /// layer trees. That paid for itself when adopted (37 s more CPU to compile, 70 s less for the
    /// Swift tests); in today's whole-module test build it is about even (docs/benchmarks.md,
    /// "`make test` time").
    .target(name: "FlickScene", dependencies: ["FlickMotion", "CPNG"], swiftSettings: [.unsafeFlags(["-O"])]),
    /// Cairo/Pango rasteriser: draws render trees, decodes pictures, runs rlottie and librsvg.
    /// Optimised in every build (`-O`; a debug build keeps `-enable-testing` for `@testable import`): its
    /// per-pixel loops (box blur, shadows, layer effects, motion blur) unoptimised were most of the CPU of
    /// the template-sweep tests; about 40 s more CPU to compile, a third less for those tests
    /// (docs/benchmarks.md, "`make test` time").
    .target(
      name: "FlickRaster",
      dependencies: ["FlickScene", "CCairo", "CPango", "CJPEG", "CWebP", "CRLottie", "CRSVG", "CPNG", "CGradient"],
      swiftSettings: [.unsafeFlags(["-O"])]),
    /// Output formats, the ffmpeg subprocess and the parallel render pipeline.
    .target(name: "FlickVideo", dependencies: ["FlickRaster", "CYUV", "CSpawn"]),
    /// The versioned JSON5 template format.
    /// (FlickRaster measures a text layer that sizes itself to its text, as a render lays it out.)
    .target(name: "FlickTemplates", dependencies: ["FlickScene", "FlickMotion", "FlickRaster"]),
    /// Image comparison, golden files and reports.
    .target(name: "FlickSnapshot", dependencies: ["FlickRaster", "FlickTemplates", "CPNG"]),
    /// Helpers for users' own Swift tests (`assertFrameSnapshot`).
    .target(name: "FlickTesting", dependencies: ["FlickSnapshot", "FlickTemplates", "FlickVideo"]),
    /// Batch plans, shards, up-to-date stamps and merges of chunked clips (`flick plan/run/merge`).
    .target(name: "FlickBatch", dependencies: ["FlickTemplates", "FlickVideo", "FlickRaster", "FlickSnapshot"]),
    /// `flick studio`: the local web app (libmicrohttpd server, live preview, hot reload, API).
    .target(
      name: "FlickStudio",
      dependencies: ["FlickTemplates", "FlickVideo", "FlickRaster", "FlickSnapshot", "FlickBatch", "CMicroHTTPD"],
      resources: [.copy("Page")]),
    /// The command-line tool.
    .executableTarget(
      name: "flick",
      dependencies: [
        "FlickMotion", "FlickScene", "FlickRaster", "FlickVideo", "FlickTemplates", "FlickSnapshot",
        "FlickBatch", "FlickStudio",
      ],
      // lld, as the test bundle (FlickTestSupport).
      linkerSettings: [.unsafeFlags(["-use-ld=lld"], .when(platforms: [.linux], configuration: .debug))]),

    /// `make bench-raster`: Flick's side of the side-by-side card-swap benchmark against cardswap.c.
    .executableTarget(
      name: "flick-cardswap", dependencies: ["FlickScene", "FlickRaster", "FlickMotion"],
      path: "Benchmarks/raster/cardswap-swift"),
    /// `make bench-raster BENCH_ARGS=--templates`: every bundled template, static prefix off and on.
    .executableTarget(
      name: "flick-bench-raster-templates", dependencies: ["FlickTemplates", "FlickRaster", "FlickScene"],
      path: "Benchmarks/raster/templates"),
    /// `make bench-snapshot`: comparator speed against render speed.
    .executableTarget(
      name: "flick-bench-snapshot", dependencies: ["FlickSnapshot", "FlickTemplates"],
      path: "Benchmarks/snapshot"),
    /// `make bench-compile`: template compile time against the number of animated layers.
    .executableTarget(
      name: "flick-bench-compile", dependencies: ["FlickTemplates", "FlickTestSupport"], path: "Benchmarks/compile"),

    /// `make bench-scene-animator`: a scene driven by one Animator against per-layer animations.
    .executableTarget(
      name: "flick-bench-scene-animator", dependencies: ["FlickScene", "FlickRaster", "FlickTestSupport"],
      path: "Benchmarks/scene-animator"),
    /// `make bench-links`: card-swap as bundled against a copy with links and text changes, per frame.
    .executableTarget(
      name: "flick-bench-links", dependencies: ["FlickTemplates", "FlickRaster", "FlickScene", "FlickTestSupport"],
      path: "Benchmarks/links"),
    /// `make bench-yuv`: the MP4 path's BGRA → yuv420p conversion against ffmpeg's `scale` step.
    .executableTarget(
      name: "flick-bench-yuv", dependencies: ["FlickTemplates", "FlickRaster", "FlickVideo", "FlickTestSupport"],
      path: "Benchmarks/yuv"),
    /// Examples/: the seeds' APIs in Swift, built and run by `make test` (ExamplesTests).
    .executableTarget(
      name: "flick-example-card-swap", dependencies: ["FlickScene", "FlickRaster", "FlickVideo"],
      path: "Examples/CardSwap"),
    .executableTarget(
      name: "flick-example-springy-button", dependencies: ["FlickScene", "FlickRaster", "FlickVideo"],
      path: "Examples/SpringyButton"),
    .executableTarget(
      name: "flick-example-chain", dependencies: ["FlickScene", "FlickRaster", "FlickVideo"],
      path: "Examples/GPUAnimationChain"),
    .executableTarget(
      name: "flick-example-property-animator", dependencies: ["FlickScene", "FlickRaster", "FlickVideo"],
      path: "Examples/PropertyAnimator"),

    // MARK: - Implementation details

    .systemLibrary(
      name: "CCairo", pkgConfig: "cairo",
      providers: [.apt(["libcairo2-dev"]), .brew(["cairo"])]),
    // Pango and librsvg are C targets whose include/ folders link the libraries' headers from
    // /usr/include (scripts/bootstrap installs libpango1.0-dev and librsvg2-dev): their own
    // pkg-config files carry -pthread (from gio-2.0), which SwiftPM drops from system-library
    // flags with a warning in every client's build. The other include paths come from cairo's
    // pkg-config file, without it (glib, pixman, freetype, libpng); HarfBuzz's headers, which
    // Pango's include, are linked into CPango's include/ folder too. Pango is loaded on first
    // use, with HarfBuzz and FriBidi (CDynamicLibrary, below).
    .target(name: "CPango", dependencies: ["CCairo", "CDynamicLibrary"]),
    .systemLibrary(
      name: "CJPEG", pkgConfig: "libjpeg",
      providers: [.apt(["libjpeg-dev"]), .brew(["jpeg-turbo"])]),
    .systemLibrary(
      name: "CWebP", pkgConfig: "libwebp",
      providers: [.apt(["libwebp-dev"]), .brew(["webp"])]),
    // rlottie, librsvg and libmicrohttpd are loaded on first use (CDynamicLibrary), not linked: a
    // process that draws no Lottie file or SVG and serves no studio does not map them and their
    // dependencies (about 5 ms of every start). Their headers come from librlottie-dev,
    // librsvg2-dev and libmicrohttpd-dev (scripts/bootstrap).
    .target(name: "CDynamicLibrary", linkerSettings: [.linkedLibrary("dl")]),
    .target(name: "CRLottie", dependencies: ["CDynamicLibrary"]),
    .target(name: "CRSVG", dependencies: ["CCairo", "CDynamicLibrary"]),
    // The inner loops of the MP4 path's BGRA → yuv420p conversion (FlickVideo's YUV420Converter):
    // SSE2 on x86-64, plain C elsewhere; optimised in every build, like CGradient, for the tests.
    .target(name: "CYUV", cSettings: [.unsafeFlags(["-O2"])]),
    // pixman's gradient walker and the per-pixel loop of FlickRaster's RadialGradientRaster
    // (pixman's radial arithmetic); optimised in every build, like FlickRaster, for the tests.
    .target(name: "CGradient", cSettings: [.unsafeFlags(["-O2"])]),
    // Child processes in a process group of their own, killed with Flick (FlickVideo's Subprocess).
    .target(name: "CSpawn"),
    // The HTTP server of `flick studio` (FlickStudio's HTTPServer).
    .target(name: "CMicroHTTPD", dependencies: ["CDynamicLibrary"]),
    .systemLibrary(
      name: "CPNG", pkgConfig: "libpng",
      providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),

    // MARK: - Tests

    /// Subprocess helpers shared by the end-to-end test suites, and PNG files read and written
    /// with libpng (not a product).
    /// Its linker setting reaches every debug test bundle on Linux: lld (shipped with the Swift
    /// toolchain) links the 80 MB test bundle in a fraction of gold's wall time on a busy machine
    /// (docs/benchmarks.md, "`make test` time").
    .target(
      name: "FlickTestSupport", dependencies: ["CPNG"],
      linkerSettings: [.unsafeFlags(["-use-ld=lld"], .when(platforms: [.linux], configuration: .debug))]),

    /// `expectEqual(a, b)` and the other comparisons the tests use instead of `#expect(a == b)`,
    /// whose expansion costs the type checker about ten times as much (docs/benchmarks.md).
    .target(name: "FlickExpectations"),

    .testTarget(name: "FlickMotionTests", dependencies: ["FlickExpectations", "FlickMotion", "FlickTestSupport"]),
    .testTarget(name: "FlickSceneTests", dependencies: ["FlickExpectations", "FlickScene", "FlickTestSupport"]),
    .testTarget(
      name: "FlickRasterTests",
      dependencies: [
        "FlickExpectations",
        "FlickRaster", "CCairo", "CGradient", "CRLottie", "CRSVG", "FlickTemplates", "FlickTestSupport",
      ],
      exclude: ["Fixtures"],
      // These tests compare with rlottie's and librsvg's own output, calling them directly (and
      // GObject's g_object_unref); Flick itself loads them on first use (CDynamicLibrary) and
      // gets these same copies.
      linkerSettings: [.linkedLibrary("rlottie"), .linkedLibrary("rsvg-2"), .linkedLibrary("gobject-2.0")]),
    .testTarget(
      name: "FlickVideoTests", dependencies: ["FlickExpectations", "FlickVideo", "FlickTemplates", "FlickTestSupport"]),
    .testTarget(
      name: "FlickTemplatesTests",
      dependencies: ["FlickExpectations", "FlickTemplates", "FlickRaster", "FlickTestSupport"],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "FlickSnapshotTests",
      dependencies: ["FlickExpectations", "FlickSnapshot", "FlickTesting", "FlickTestSupport"],
      exclude: ["Fixtures", "__Snapshots__"]),
    .testTarget(
      name: "FlickBatchTests",
      dependencies: ["FlickExpectations", "FlickBatch", "FlickTemplates", "FlickVideo", "FlickTestSupport"],
      exclude: ["Fixtures"]),
    /// The CLI is tested through the built `flick` and the files it writes, with no Flick module.
    /// FlickScene is a dependency for the build's schedule alone: ready when FlickRaster starts, the
    /// module compiles beside FlickRaster's `-O` compile, whose single-threaded optimiser leaves a
    /// core idle; without it, it competed with FlickScene's (docs/benchmarks.md, "`make test` time").
    .testTarget(name: "FlickCLITests", dependencies: ["FlickExpectations", "FlickTestSupport", "FlickScene"]),
    .testTarget(
      name: "FlickStudioTests",
      dependencies: ["FlickExpectations", "FlickStudio", "FlickTemplates", "FlickRaster", "FlickTestSupport"],
      exclude: ["Fixtures"]),
    .testTarget(name: "FlickExamplesTests", dependencies: ["FlickExpectations", "FlickTestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
