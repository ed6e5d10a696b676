import FlickExpectations
import Foundation
import Testing

/// docs/design.md's module table against Package.swift: every module under Sources/ has a row,
/// no row names a module that is gone, and each Swift module's "depends on" cell lists exactly its
/// target's dependencies (C ones included), so the architecture page cannot drift from the build.
@Suite struct DesignModuleTableTests {
  static let root = CLITests.root

  /// One target of Package.swift: its name and the targets it depends on.
  struct Target: Equatable {
    var name: String
    var dependencies: Set<String>
  }

  /// The targets declared with `.target`, `.executableTarget` or `.systemLibrary` and no `path:`
  /// (those live under Sources/; benchmarks and examples give a path of their own).
  static func packageTargets() throws -> [Target] {
    let text = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
    var targets: [Target] = []
    let starts = [".target(", ".executableTarget(", ".systemLibrary("]
    var index = text.startIndex
    while let found = starts.compactMap({ text.range(of: $0, range: index..<text.endIndex) })
      .min(by: { $0.lowerBound < $1.lowerBound })
    {
      // The call's arguments: up to the parenthesis that closes it.
      var depth = 0
      var end = found.upperBound
      var cursor = text.index(before: found.upperBound)
      while cursor < text.endIndex {
        if text[cursor] == "(" { depth += 1 }
        if text[cursor] == ")" {
          depth -= 1
          if depth == 0 {
            end = cursor
            break
          }
        }
        cursor = text.index(after: cursor)
      }
      let call = String(text[found.upperBound..<end])
      index = end
      guard !call.contains("path:"), let name = Self.strings(in: call, after: "name:").first else { continue }
      targets.append(Target(name: name, dependencies: Set(Self.strings(in: call, after: "dependencies:"))))
    }
    return targets
  }

  /// The quoted strings of the value after `label` (one string, or a `[...]` list).
  static func strings(in call: String, after label: String) -> [String] {
    guard let at = call.range(of: label) else { return [] }
    var rest = call[at.upperBound...].drop { $0 == " " || $0 == "\n" }
    if rest.first == "[", let close = rest.firstIndex(of: "]") {
      rest = rest[..<close]
    } else if let comma = rest.firstIndex(where: { $0 == "," || $0 == ")" }) {
      rest = rest[..<comma]
    }
    return rest.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
      .filter { $0.offset % 2 == 1 }.map { String($0.element) }
  }

  /// The table's rows: the module names of the first cell and the names of the last cell.
  static func designRows() throws -> [(modules: [String], dependsOn: [String])] {
    let text = try String(contentsOf: root.appendingPathComponent("docs/design.md"), encoding: .utf8)
    guard let start = text.range(of: "## Modules (Sources/)") else { return [] }
    let lines = text[start.upperBound...].split(separator: "\n").drop { !$0.hasPrefix("|") }
    var rows: [(modules: [String], dependsOn: [String])] = []
    for line in lines {
      guard line.hasPrefix("|") else { break }
      let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      guard cells.count >= 4, cells[1].hasPrefix("`") else { continue }
      let modules = cells[1].split(separator: "`", omittingEmptySubsequences: false).enumerated()
        .filter { $0.offset % 2 == 1 }.map { String($0.element) }
      let last = cells[cells.count - 2]
      let dependsOn =
        last == "—" || last.hasPrefix("nothing")
        ? []
        : last.split(separator: ",").map {
          String($0.split(separator: "(")[0]).trimmingCharacters(in: .whitespaces)
        }
      rows.append((modules, dependsOn))
    }
    return rows
  }

  @Test func everyModuleHasARowAndEveryRowAModule() throws {
    let declared = Set(try Self.packageTargets().map(\.name))
    let rows = try Self.designRows()
    #expect(!rows.isEmpty, "docs/design.md has no module table")
    let documented = Set(rows.flatMap(\.modules))
    expectEqual(declared.subtracting(documented).sorted(), [], "modules without a row in docs/design.md")
    expectEqual(documented.subtracting(declared).sorted(), [], "rows naming no module of Package.swift")
  }

  @Test func eachSwiftModuleListsExactlyItsDependencies() throws {
    let targets = try Self.packageTargets()
    for row in try Self.designRows() where row.modules.count == 1 {
      guard let target = targets.first(where: { $0.name == row.modules[0] }) else { continue }
      expectEqual(
        Set(row.dependsOn), target.dependencies,
        "docs/design.md: \(target.name) depends on \(target.dependencies.sorted()), the table says \(row.dependsOn)")
    }
  }

  @Test func theParserReadsThePackage() throws {
    let targets = try Self.packageTargets()
    expectEqual(targets.first { $0.name == "FlickScene" }?.dependencies, ["FlickMotion", "CPNG"])
    #expect(targets.contains { $0.name == "CCairo" })
    #expect(!targets.contains { $0.name == "flick-cardswap" }, "targets with a path of their own are not modules")
  }
}
