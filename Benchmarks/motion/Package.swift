// swift-tools-version:6.0
// Release-mode benchmark of FlickMotion: `make bench-motion` (kept out of `make test`).
import PackageDescription

let package = Package(
  name: "MotionBenchmark",
  platforms: [.macOS(.v13)],
  dependencies: [.package(name: "Flick", path: "../..")],
  targets: [
    .executableTarget(
      name: "MotionBenchmark",
      dependencies: [.product(name: "FlickMotion", package: "Flick")])
  ],
  swiftLanguageModes: [.v6]
)
