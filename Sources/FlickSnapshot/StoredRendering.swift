import FlickMotion
import FlickRaster
import FlickScene
import Foundation

/// The goldens' stored inputs, loaded (``SnapshotInputs/rerender(from:at:scale:allowOutsideAssets:limits:tracking:refusal:)``):
/// draws the frame of each time when asked, so `flick verify` across a renderer change and
/// `flick accept --renderer` hold the frames they are comparing or encoding, never the whole list.
/// Safe to call from several threads at once (each call draws with a renderer of its own).
///
/// The temporary folder the inputs were written to (their assets and fonts are read from it while
/// drawing) is removed by ``removeFolder()``, or when the last copy of this is released (which a
/// worker thread may do after the process has moved on: a command removes it itself).
package struct StoredRendering: Sendable {
  /// The stored template's scene.
  let scene: Scene
  /// Pixels per point.
  let scale: Double
  /// The times to draw, in order.
  package let times: [SnapshotTime]
  /// The temporary folder of the stored inputs: removed when the last copy of this goes.
  let folder: TrackedFolder

  /// Removes the temporary folder of the stored inputs: no frame can be drawn after.
  package func removeFolder() { folder.remove() }

  /// The number of frames: one per time.
  package var count: Int { times.count }

  /// Draws the frame of the `index`-th time: its time in seconds in the stored scene and the
  /// frame, or why it could not be drawn (a time the stored scene does not have, a failed draw).
  package func frame(_ index: Int) -> (seconds: Double, frame: Result<Frame, SnapshotError>) {
    let seconds: Double
    do {
      seconds = try times[index].seconds(duration: scene.duration, fps: scene.fps)
    } catch {
      return (0, .failure(.renderFailed("the goldens' stored template has no \(escaped: error.description)")))
    }
    do {
      return (seconds, .success(try Renderer(scale: scale).render(scene.renderTree(at: seconds))))
    } catch {
      return (seconds, .failure(.renderFailed("re-rendering the golden: \(escaped: error.description)")))
    }
  }
}
