internal import CCairo
import FlickMotion
import FlickScene

extension LayerPainter {
  /// Draws a layer with a 3D rotation: its plane (content, sublayers, shadow) is drawn flat
  /// into an offscreen surface at about the on-screen resolution, then mapped onto the screen
  /// through the exact projective transform with bilinear sampling.
  func drawProjected(_ layer: Layer, _ m: ProjectiveTransform, in cr: OpaquePointer) throws(RasterError) {
    let ctm = CairoDraw.matrix(cr)
    let device = ProjectiveTransform(ctm.xx, ctm.xy, ctm.x0, ctm.yx, ctm.yy, ctm.y0, 0, 0, 1).concatenating(m)
    guard let e = inkExtents(layer), e.width > 0, e.height > 0 else { return }
    let corners = [
      Point(x: e.minX, y: e.minY), Point(x: e.maxX, y: e.minY), Point(x: e.minX, y: e.maxY),
      Point(x: e.maxX, y: e.maxY),
    ]
    var projected: [Point] = []
    for c in corners {
      // A plane reaching behind the viewer is not drawn (Core Animation clips it at the eye).
      guard let p = device.apply(to: c) else { return }
      projected.append(p)
    }
    var clip = (0.0, 0.0, 0.0, 0.0)
    cairo_save(cr)
    cairo_identity_matrix(cr)
    cairo_clip_extents(cr, &clip.0, &clip.1, &clip.2, &clip.3)
    cairo_restore(cr)
    let x0 = max(0, CairoDraw.pixel(max(clip.0, projected.map(\.x).min() ?? 0).rounded(.down)))
    let y0 = max(0, CairoDraw.pixel(max(clip.1, projected.map(\.y).min() ?? 0).rounded(.down)))
    let x1 = min(targetWidth, CairoDraw.pixel(min(clip.2, projected.map(\.x).max() ?? 0).rounded(.up)))
    let y1 = min(targetHeight, CairoDraw.pixel(min(clip.3, projected.map(\.y).max() ?? 0).rounded(.up)))
    guard x1 > x0, y1 > y0 else { return }
    func distance(_ a: Point, _ b: Point) -> Double { (a - b).magnitudeSquared.squareRoot() }
    var s = max(
      distance(projected[0], projected[1]) / e.width, distance(projected[2], projected[3]) / e.width,
      distance(projected[0], projected[2]) / e.height, distance(projected[1], projected[3]) / e.height)
    s = min(max(s, 0.05), 4, 4096 / e.width, 4096 / e.height)
    let sw = max(1, CairoDraw.pixel((e.width * s).rounded(.up)))
    let sh = max(1, CairoDraw.pixel((e.height * s).rounded(.up)))
    guard let plane = CairoImage(width: sw, height: sh, format: CAIRO_FORMAT_ARGB32, arena: arena),
      let pcr = plane.makeContext()
    else {
      return
    }
    cairo_scale(pcr, s, s)
    cairo_translate(pcr, -e.minX, -e.minY)
    let saved = (targetWidth, targetHeight)
    (targetWidth, targetHeight) = (sw, sh)
    var failure: RasterError?
    do { try drawBody(layer, in: pcr) } catch { failure = error }
    (targetWidth, targetHeight) = saved
    cairo_destroy(pcr)
    if let failure { throw failure }
    cairo_surface_flush(plane.surface)
    let toDevice = device.concatenating(ProjectiveTransform(1 / s, 0, e.minX, 0, 1 / s, e.minY, 0, 0, 1))
    guard let inverse = toDevice.inverted,
      let out = CairoImage(width: x1 - x0, height: y1 - y0, format: CAIRO_FORMAT_ARGB32, arena: arena)
    else { return }
    ProjectiveWarp.warp(plane, into: out, originX: x0, originY: y0, inverse: inverse)
    CairoDraw.paint(out, atDevice: x0, y0, in: cr)
  }
}

/// Resampling through a homography with bilinear filtering of premultiplied pixels, in
/// integers so the result is the same on every run.
enum ProjectiveWarp {
  static func warp(
    _ source: CairoImage, into dest: CairoImage, originX: Int, originY: Int, inverse h: ProjectiveTransform
  ) {
    guard let src = cairo_image_surface_get_data(source.surface), let dst = cairo_image_surface_get_data(dest.surface)
    else { return }
    let sStride = Int(cairo_image_surface_get_stride(source.surface))
    let dStride = Int(cairo_image_surface_get_stride(dest.surface))
    let sw = source.width
    let sh = source.height
    let srcWords = UnsafeRawPointer(src)
    func texel(_ x: Int, _ y: Int) -> UInt32 {
      guard x >= 0, y >= 0, x < sw, y < sh else { return 0 }
      return srcWords.load(fromByteOffset: y * sStride + x * 4, as: UInt32.self)
    }
    for j in 0..<dest.height {
      let py = Double(originY + j) + 0.5
      let row = UnsafeMutableRawPointer(dst + j * dStride)
      for i in 0..<dest.width {
        let px = Double(originX + i) + 0.5
        let w = h.m31 * px + h.m32 * py + h.m33
        guard w > 1e-9 else {
          row.storeBytes(of: 0, toByteOffset: i * 4, as: UInt32.self)
          continue
        }
        let u = (h.m11 * px + h.m12 * py + h.m13) / w - 0.5
        let v = (h.m21 * px + h.m22 * py + h.m23) / w - 0.5
        guard u > -1, v > -1, u < Double(sw), v < Double(sh) else {
          row.storeBytes(of: 0, toByteOffset: i * 4, as: UInt32.self)
          continue
        }
        let fx = u.rounded(.down)
        let fy = v.rounded(.down)
        let ix = Int(fx)
        let iy = Int(fy)
        let ax = UInt32(((u - fx) * 256).rounded())
        let ay = UInt32(((v - fy) * 256).rounded())
        let t00 = texel(ix, iy), t10 = texel(ix + 1, iy), t01 = texel(ix, iy + 1), t11 = texel(ix + 1, iy + 1)
        var out: UInt32 = 0
        for shift in stride(from: 0 as UInt32, to: 32, by: 8) {
          let c00 = (t00 >> shift) & 0xFF, c10 = (t10 >> shift) & 0xFF
          let c01 = (t01 >> shift) & 0xFF, c11 = (t11 >> shift) & 0xFF
          let top = c00 * (256 - ax) + c10 * ax
          let bottom = c01 * (256 - ax) + c11 * ax
          let c = (top * (256 - ay) + bottom * ay + 32768) >> 16
          out |= min(c, 255) << shift
        }
        row.storeBytes(of: out, toByteOffset: i * 4, as: UInt32.self)
      }
    }
    cairo_surface_mark_dirty(dest.surface)
  }
}
