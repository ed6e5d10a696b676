internal import CCairo
import FlickMotion
import FlickScene

/// Where a 3D layer's plane is drawn: the part of the layer's own coordinates its offscreen
/// surface covers, that surface's pixels per point, and the device pixels it is mapped onto.
struct PlanePlacement {
  var region: Rect
  var scale: Double
  var x0, y0, x1, y1: Int
}

extension LayerPainter {
  /// Draws a layer with a 3D rotation: its plane (content, sublayers, shadow) is drawn flat
  /// into an offscreen surface at about the on-screen resolution, then mapped onto the screen
  /// through the exact projective transform with bilinear sampling.
  ///
  /// A plane that reaches the viewer's eye (a corner, or a sublayer flattened into it, at or
  /// behind it) is clipped there as Core Animation clips it: only the part in front of the eye
  /// (``ProjectiveTransform/frontPart(of:within:)``) that maps into the clip is drawn, through
  /// the same homography; the rest of the plane has no place on the screen.
  func drawProjected(_ layer: Layer, _ m: ProjectiveTransform, in cr: OpaquePointer) throws(RasterError) {
    let ctm = CairoDraw.matrix(cr)
    let device = ProjectiveTransform(ctm.xx, ctm.xy, ctm.x0, ctm.yx, ctm.yy, ctm.y0, 0, 0, 1).concatenating(m)
    var reachesEye = false
    guard let e = inkExtents(layer, reachesEye: &reachesEye), e.width > 0, e.height > 0 else { return }
    var clip = (0.0, 0.0, 0.0, 0.0)
    cairo_save(cr)
    cairo_identity_matrix(cr)
    cairo_clip_extents(cr, &clip.0, &clip.1, &clip.2, &clip.3)
    cairo_restore(cr)
    let corners = [
      Point(x: e.minX, y: e.minY), Point(x: e.maxX, y: e.minY), Point(x: e.minX, y: e.maxY),
      Point(x: e.maxX, y: e.maxY),
    ]
    let projected = reachesEye ? [] : corners.compactMap { device.apply(to: $0) }
    let placement =
      projected.count == 4
      ? wholePlane(e, projected, clip: clip) : frontOfEye(e, device, clip: clip)
    guard let placement else { return }
    try drawPlane(layer, device, placement, in: cr)
  }

  /// The placement of a plane wholly in front of the eye: all of its ink extents `e`, at the
  /// largest scale of its projected edges.
  private func wholePlane(_ e: Rect, _ projected: [Point], clip: (Double, Double, Double, Double)) -> PlanePlacement? {
    let x0 = max(0, CairoDraw.pixel(max(clip.0, projected.map(\.x).min() ?? 0).rounded(.down)))
    let y0 = max(0, CairoDraw.pixel(max(clip.1, projected.map(\.y).min() ?? 0).rounded(.down)))
    let x1 = min(targetWidth, CairoDraw.pixel(min(clip.2, projected.map(\.x).max() ?? 0).rounded(.up)))
    let y1 = min(targetHeight, CairoDraw.pixel(min(clip.3, projected.map(\.y).max() ?? 0).rounded(.up)))
    guard x1 > x0, y1 > y0 else { return nil }
    func distance(_ a: Point, _ b: Point) -> Double { (a - b).magnitudeSquared.squareRoot() }
    let s = max(
      distance(projected[0], projected[1]) / e.width, distance(projected[2], projected[3]) / e.width,
      distance(projected[0], projected[2]) / e.height, distance(projected[1], projected[3]) / e.height)
    return PlanePlacement(
      region: e, scale: min(max(s, 0.05), 4, 4096 / e.width, 4096 / e.height), x0: x0, y0: y0, x1: x1, y1: y1)
  }

  /// The placement of a plane that reaches the eye: the part of `e` in front of it whose image
  /// lies in the clip (a convex polygon, so its image is the convex hull of its vertices'), at
  /// the largest magnification there, with two surface pixels around it for the filter.
  private func frontOfEye(_ e: Rect, _ device: ProjectiveTransform, clip: (Double, Double, Double, Double))
    -> PlanePlacement?
  {
    let wx0 = max(clip.0, 0)
    let wy0 = max(clip.1, 0)
    let window = Rect(
      x: wx0, y: wy0, width: min(clip.2, Double(targetWidth)) - wx0, height: min(clip.3, Double(targetHeight)) - wy0)
    guard window.width > 0, window.height > 0 else { return nil }
    let visible = device.frontPart(of: e.cornerPolygon, within: window)
    let images = visible.map(device.frontImage)
    guard !images.isEmpty, images.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return nil }
    let x0 = max(0, CairoDraw.pixel(max(clip.0, images.map(\.x).min() ?? 0).rounded(.down)))
    let y0 = max(0, CairoDraw.pixel(max(clip.1, images.map(\.y).min() ?? 0).rounded(.down)))
    let x1 = min(targetWidth, CairoDraw.pixel(min(clip.2, images.map(\.x).max() ?? 0).rounded(.up)))
    let y1 = min(targetHeight, CairoDraw.pixel(min(clip.3, images.map(\.y).max() ?? 0).rounded(.up)))
    guard x1 > x0, y1 > y0 else { return nil }
    var local = Box(Rect(origin: visible[0], size: .zero))
    for p in visible.dropFirst() { local.add(p) }
    let s = min(
      max(visible.map(device.magnification(at:)).max() ?? 0, 0.05), 4, 4096 / max(local.maxX - local.minX, 1e-9),
      4096 / max(local.maxY - local.minY, 1e-9))
    guard s.isFinite, s > 0 else { return nil }
    let pad = 2 / s
    let region = Rect(
      x: max(e.minX, local.minX - pad), y: max(e.minY, local.minY - pad),
      width: min(e.maxX, local.maxX + pad) - max(e.minX, local.minX - pad),
      height: min(e.maxY, local.maxY + pad) - max(e.minY, local.minY - pad))
    guard region.width > 0, region.height > 0 else { return nil }
    return PlanePlacement(region: region, scale: s, x0: x0, y0: y0, x1: x1, y1: y1)
  }

  /// Draws the layer's plane over `placement.region` into a surface and maps it onto the
  /// device pixels of `placement` through `device`.
  private func drawPlane(
    _ layer: Layer, _ device: ProjectiveTransform, _ placement: PlanePlacement, in cr: OpaquePointer
  ) throws(RasterError) {
    let (e, s) = (placement.region, placement.scale)
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
    let (x0, y0) = (placement.x0, placement.y0)
    guard let inverse = toDevice.inverted,
      let out = CairoImage(
        width: placement.x1 - x0, height: placement.y1 - y0, format: CAIRO_FORMAT_ARGB32, arena: arena)
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
