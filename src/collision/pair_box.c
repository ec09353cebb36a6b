/* Narrow phase: box-box, with up to 9 contacts.
 *
 * The separating-axis test over the 15 candidate axes (3 face normals of each box, 9 cross
 * products of their edges) picks the axis of least penetration (or largest separation); as
 * measured on MuJoCo, an edge axis must beat the best face axis by a relative 1e-12 of its
 * separation (faces tilted by 1e-9 are an edge axis, faces tilted by 1e-13 a face axis).
 *
 * Face axis: the face of the other box most opposed to the normal (the incident face) is overlapped
 * with the rectangle of the reference face; each corner of the overlap polygon whose distance to
 * the reference plane is within the margin makes a contact, at the midpoint between the corner and
 * the plane. As measured on MuJoCo, the distance reported for these contacts is half the corner's
 * distance to the plane, except where the two faces are apart and exactly parallel or tilted
 * about one in-plane axis only (full distance).
 *
 * Edge axis: as measured on MuJoCo, the overlap of the face of box 1 most aligned with the axis
 * and the incident face of box 2 projected onto it along the axis (not along the face normal);
 * each point reports its full distance along the axis. The crossing of the two edges is one of
 * these points; the others are the extra contacts MuJoCo adds in deep penetration, thinned by
 * 1 % tolerances on the midpoints (see edge_contacts, which also gives the numbering and order).
 *
 * On a face axis MuJoCo thins the overlap polygon by the incident face's tilt, and leaves out the
 * crossings and reference corners whose contact position lies out of the incident box's slabs
 * across the incident face grown by 1 % (see face_contacts), as on an edge axis. Exactly parallel
 * faces apart whose overlap is empty give the points nearest it within the margin (see there).
 *
 * The 1 % tolerances, one rule on both kinds of axis (see edge_contacts): a point is left out
 * where its contact position lies out of one face's slab grown by 1 % on an in-plane axis of
 * that face, |c| > 1.01 (s + m), and out of the other face shrunk by 1 % on an in-plane axis of
 * that face, 1.01 |c| > s + m (s a half size, m the margin). That is how the margin enters, as
 * measured by bisecting the margin on fixed poses. A point on a box's face (a crossing on the
 * reference border, a point on the end face of an edge axis) lies out of that box shrunk for
 * any m < 0.01 s and inside it above: so at margin 0 the shrunk test is met by every point on
 * the border and the rules first read as the grown test alone, while from m = 0.01 s on such a
 * point comes whatever the grown test says (boxes 0.3 x 0.2 x 0.4 at margin 0.01: MuJoCo's
 * switches fall at m = 0.003 or 0.004 to 1e-16, 0.01 s of the face the point lies on). The
 * same rule with the slabs across the two faces themselves: a point beyond either box's far face
 * (its slab across the reference or incident face grown by 1 %) is left out where it also lies
 * out of the other box shrunk by 1 % on any axis.
 * Where the centres coincide, a face axis of box 2 points from box 2 to box 1 (as measured).
 *
 * Not reproduced yet (table.c uses it all the same): on an edge axis MuJoCo sometimes keeps a later reference
 * corner than the first inside the incident face (rule not found, see edge_contacts); the margin above which it adds the incident face's deepest
 * corner outside the reference face (see face_contacts) drops a little below 1 % of the face's
 * larger half size with a tilt; where the faces are parallel only to rounding (components of
 * 1e-16 along the normal) the corner numbering, and so the order, follows MuJoCo's rounding.
 * Boxes apart by more than a tenth of their size within a large margin (margin 0.3 on boxes of
 * half size 0.1): MuJoCo reports points outside both boxes. On an edge axis whose overlap is
 * empty this is reproduced in part (edge_contacts_apart: the points' positions and distances
 * exactly, which corners come on about half of the poses; tools/box_box_deep.py --apart
 * --margin 0.3: edge-axis poses differing 19 -> 8 of 117). Parallel faces apart whose overlap
 * is empty (boxes turned by quarter turns): box 1 gives the reference face (see
 * gs_collideBoxBox) and the points depend on the side of the reference face the incident face
 * lies beside (beside_points: clipped on two sides, unclipped corners on the other two).
 * Not found there: on the unclipped sides MuJoCo often (by the incident box's orientation and
 * the cut end) pairs the reference corner Y at the cut border with a point X of the incident
 * face instead of giving the cut incident corner C (beyond the border line) unclipped. Measured
 * law (boxes 0.3 x 0.2 x 0.4, box 1 unturned, box 2 beside its faces by e = 0.02 to 0.08 and
 * g = 0.1 or 0.15 along the normal, offsets along the border 0.02 to 0.1; exact to 1e-6):
 * X = C + m (s - 1) (C - Y) on one in-plane component, clamped into the incident rectangle,
 * s - 1 = 4 hu hv / (L^2 + g^2) with hu, hv the incident half sizes in the plane and L the
 * distance from C to the reference face's far border along the side's axis (L = e + 2 R); with
 * m = +1 on the side's axis (X moves away from the face along the incident edge; box 2 unturned
 * beside box 1's +z face on its +y side), or m = -1 on the border's axis (X slides along the near
 * incident edge towards Y, by (s - 1) times C's offset beyond the border; box 2 turned by a half
 * turn about x); dist |X - Y|, pos their midpoint. Over the 192 such poses with one border line
 * cut (box 2 in the 24 orientations beside the unclipped sides of the 6 faces, offsets +-0.05)
 * MuJoCo gives the unclipped corner on 90, the first form on 12, the second on 24, and other
 * points on 66 (three contacts, far reference corners); no table of up to four of the cut
 * corner's signs on box 2's axes, box 2's axes along the normal, the side and the border, the
 * face, its sign and the cut end tells which (at best 60 wrong). Where the incident edge ends
 * inside the border instead (box 2 unturned, offset dx <= 0), Y is still the corner at +x and
 * X lies inside the face on the line from Y through the near incident corner (s = 1.438, 1.416,
 * 1.380, 1.314 at dx = 0, -0.02, -0.05, -0.1: another L), while the cut corner gives nothing.
 * The same kind of point is what edge_contacts_apart leaves out (a reference corner paired with
 * another point of the incident border), and the two cubes below have the same form with L = 0
 * (faces overlapping). Two cubes side by side 0.1 apart and 0.03 apart in height give 6
 * contacts against gauss's 4: one is a tie (the cubes' equal widths put a reference corner on
 * the incident border to the last bit; MuJoCo lists that point twice), the other pairs a
 * reference corner Y, outside the incident face on both in-plane axes, with the point
 * X = Y + s (C - Y) of the incident face, C the incident corner nearest Y (inside the reference
 * face), s = 1 + 4 hu hv / g^2 (hu, hv box 2's half sizes in the plane, checked with box 2 of
 * 0.1 x 0.12 x 0.1 and 0.1 x 0.1 x 0.13 against box 1 a cube; g the gap), on both in-plane
 * components: the first form above with L = 0. A reading, not confirmed: X - C =
 * (4 hu hv / D)(Y - C) is what Y's coordinates in the incident face (from corner C along the
 * incident edges, by a 2 x 2 solve) give where the solve's determinant D, +-4 hu hv, is replaced
 * by -(L^2 + g^2) (first form; X then lies inside the incident face and Y passes as a reference
 * corner inside it) or by +(L^2 + g^2) (second form: X moves from C towards Y). Measured
 * against that reading (boxes 0.3 x 0.2 x 0.4 at margin 0.3, box 2 unturned beside box 1's +z
 * face on its +y side, e = 0.04, g = 0.1, box 2's x half size hx and x offset dx varied):
 * Y is the reference corner (+x, +y) on every pose, whichever end of the near incident edge is
 * cut; the first form holds (s - 1 = 4 hx hv / (L^2 + g^2), L = e + 2 R_y, X on the edge x = C_x,
 * the other component clamped; R_x, R_y box 1's half sizes) only while the incident edge's other
 * end stays inside the far border x = -R_x; from the pose where it passes that border (hx =
 * 0.349 -> 0.351 at dx = 0.05; dx = 0.1 at hx = 0.36 still inside, first form) X stays on
 * the edge x = C_x but s - 1 is no
 * longer 4 hx hv / (L^2 + g^2 + M^2) with one M: M = 0.533, 0.526, 0.566 at (e, g) = (0.04,
 * 0.1), (0.04, 0.15), (0.08, 0.1) (hx = 0.36, dx = 0.05), and the incident corner at the other
 * end gives no contact (the pair the only one). Ruled out for that law: the numerator with the
 * edge clipped to the face (4 R_x hv), a constant factor on L^2 + g^2, X on the line from Y
 * through the other end. So the determinant D is not fixed by the two faces alone: it changes
 * with which border lines the incident edge's line passes (the line x = +R_x only: -(L^2 + g^2);
 * both: another value), as where a crossing of the incident edge with the last border line
 * reached sets up the 2 x 2 system later used for Y; which crossing, and which of its
 * quantities make D, is not found. On cubes overlapping in the plane the pair likewise needs
 * the reference corner opposite Y inside the incident face (see pair_corner). Which
 * orientations give it, as measured on cubes, is reproduced where box 2's in-plane axes have no
 * rounding component along the normal (see pair_corner; tests/python/test_box_box_margin.py
 * test_parallel_cubes_reference_corner_paired); not found: with such rounding components (quarter
 * turns through mju_mat2Quat, 12 of 192 differ, left as before), on boxes that are not cubes
 * (only unequal half sizes of box 2 were tried), the forms with L > 0 beside the unclipped sides,
 * and the tie itself (Y on the incident border; MuJoCo's duplicate). The cubes' choice does not
 * tell the forms beside the unclipped sides: over 384 such poses with one border line cut (boxes
 * 0.3 x 0.2 x 0.4, e = 0.04, g = 0.1, offsets +-0.05) the first form comes on 12, the second on
 * 28, and the same fixed corner, axis sign and side of C hold on 32 poses, none of those 40.
 * Box 2 of 0.09 x 0.1 x 0.11 beside a cube of 0.1 (the draws of test_box_box_margin.py
 * test_parallel_faces_apart_reference_corner_kept, 576 poses): on 11 poses without rounding in
 * the turn MuJoCo pairs another reference corner (not the fixed one) with a point that does not
 * follow the law (X = 2 pos - Y inside the incident face, not on the line from Y through C);
 * to measure: run that test's loop printing MuJoCo's contacts whose dist is not the gap.
 * Planar
 * boxes of equal width side by side (flush faces to the last bit, as in the dm_control stacker)
 * are a tie: MuJoCo's count moves with a 1e-15 offset across them.
 * Details and measured rates in tests/python/test_collision_pairs.py. */
#include "collision/pair_util.h"

typedef struct {
  gsReal c[3];    /* centre */
  gsReal a[3][3]; /* unit axes (world) */
  gsReal s[3];    /* half sizes */
} gsBoxFrame;

static void box_frame(gsBoxFrame* b, const gsModel* m, const gsData* d, int g) {
  gs_copy3(b->c, d->geom_xpos + 3 * g);
  for (int i = 0; i < 3; i++) {
    gs_pairAxis(b->a[i], d->geom_xmat + 9 * g, i);
    b->s[i] = m->geom_size[3 * g + i];
  }
}

/* half extent of box b projected on unit direction n */
static gsReal box_radius(const gsBoxFrame* b, const gsReal n[3]) {
  return b->s[0] * fabs(gs_dot3(b->a[0], n)) + b->s[1] * fabs(gs_dot3(b->a[1], n)) +
         b->s[2] * fabs(gs_dot3(b->a[2], n));
}

/* the axis of box b most aligned with unit direction n, either way (the first on a tie) */
static int box_facing(const gsBoxFrame* b, const gsReal n[3]) {
  int k = 0;
  gsReal best = -1;
  for (int i = 0; i < 3; i++) {
    gsReal v = fabs(gs_dot3(b->a[i], n));
    if (v > best) best = v, k = i;
  }
  return k;
}

/* coordinate of point p along axis k of box b, relative to its centre */
static gsReal box_coord(const gsBoxFrame* b, int k, const gsReal p[3]) {
  gsReal dif[3];
  gs_sub3(dif, p, b->c);
  return gs_dot3(dif, b->a[k]);
}

/* whether point p lies out of box b shrunk by 1 % on an axis other than skip (-1 for none):
 * 1.01 |c| > s + m, the form of MuJoCo's tolerances (see face_contacts and edge_contacts) */
static int out_shrunk(const gsBoxFrame* b, const gsReal p[3], int skip, gsReal margin) {
  int out = 0;
  for (int a = 0; a < 3; a++)
    out = out || (a != skip && 1.01 * fabs(box_coord(b, a, p)) > b->s[a] + margin);
  return out;
}

/* whether point p lies out of box b's slab grown by 1 % on an axis other than skip:
 * |c| > 1.01 (s + m) */
static int out_grown(const gsBoxFrame* b, const gsReal p[3], int skip, gsReal margin) {
  int out = 0;
  for (int a = 0; a < 3; a++)
    out = out || (a != skip && fabs(box_coord(b, a, p)) > 1.01 * (b->s[a] + margin));
  return out;
}

/* contacts on a face axis: the incident face of box o against the reference face `face` (side
 * rs) of box r. n: the reference face's outward normal, from r towards o. The contact normal
 * reported is n, or -n with flip.
 *
 * The points come in MuJoCo's order (as measured): first the crossings of the incident face's
 * edges with the reference face's border, then the reference face's corners inside the incident
 * face, then the incident face's corners inside the reference face. The incident corners are
 * numbered by two bits, one per in-plane axis (lower axis index first), set where the corner
 * lies on the side of that axis that points along n; the edges go 0-1, 0-2, 1-3, 2-3 and the
 * crossings on one edge come by border, the lines across t2 first, each axis's negative side
 * first, where (t1, t2) is MJCF's frame of the reference face: t1 x t2 points into the reference
 * box, t2 is z on an x face and x on the others, t1 y on x and z faces and z on y faces (+x face:
 * t1 = y, t2 = -z; -x: y, z; +y: -z, x; -y: z, x; +z: y, x; -z: y, -x). The reference corners
 * inside come by their sides of t1 (bit 0), then t2 (bit 1). Measured on exactly aligned boxes,
 * where an incident edge crosses both lines across t2 or two reference corners lie inside
 * (before: the face's own axes u, v with positive signs, which is that frame on -x faces only;
 * random offsets of boxes 0.1 x 0.12 x 0.08 against 0.07 x 0.09 x 0.11 and against itself, box
 * 2 unturned, turned by a half turn about x or by a third of a turn about a diagonal, with the
 * tie of the reference face below: 1017 -> 1200 of 1200 in order;
 * test_collision_pairs.py::test_box_box_exactly_aligned).
 * Points on the reference face's border to the last bit (flush faces, equal boxes side by side)
 * follow MuJoCo's ties, as measured: the border is part of the face on its negative side and not
 * on its positive side, both for an edge crossing a border line (an edge crosses the line x = l
 * where x >= l at one end only, so that an end on the line may be a crossing) and for an
 * incident corner inside (-s <= x < s); a reference corner must lie strictly inside the incident
 * face; and a crossing at the very point of an earlier one (an incident corner on a reference
 * corner, reached from both its edges) comes once. */
/* reference corner c of a face of half-sizes lim, in the face's plane: bit 0 the +u side, bit 1
 * the +v side */
static void ref_corner(gsReal x[2], int c, const gsReal lim[2]) {
  x[0] = (c & 1 ? 1 : -1) * lim[0];
  x[1] = (c & 2 ? 1 : -1) * lim[1];
}

/* the least and largest coordinate of the incident corners q along each in-plane axis */
static void quad_extent(const gsReal q[4][2], gsReal lo[2], gsReal hi[2]) {
  for (int k = 0; k < 2; k++) {
    lo[k] = gs_fmin(gs_fmin(q[0][k], q[1][k]), gs_fmin(q[2][k], q[3][k]));
    hi[k] = gs_fmax(gs_fmax(q[0][k], q[1][k]), gs_fmax(q[2][k], q[3][k]));
  }
}

/* the clip side (-1 or +1) of each in-plane axis of reference face `face` on side rs, as
 * measured (see beside_points) */
static void clip_sides(int face, gsReal rs, gsReal clip[2]) {
  clip[0] = face == 2 ? -rs : -1;
  clip[1] = face == 2 ? -1 : rs;
}

/* where x lies against the quadrilateral q of incident corners (its ring goes 0, 1, 3, 2):
 * 2 strictly inside, 1 on its border, 0 outside */
static int quad_side(const gsReal q[4][2], const gsReal x[2]) {
  static const int ring[4] = {0, 1, 3, 2};
  int pos = 0, neg = 0;
  for (int i = 0; i < 4; i++) {
    const gsReal* a = q[ring[i]];
    const gsReal* b = q[ring[(i + 1) % 4]];
    gsReal cr = (b[0] - a[0]) * (x[1] - a[1]) - (b[1] - a[1]) * (x[0] - a[0]);
    pos += cr > 0, neg += cr < 0;
  }
  if (pos == 4 || neg == 4) return 2;
  return pos && neg ? 0 : 1;
}

/* exactly parallel faces apart whose overlap is empty, the incident face's edges along the
 * reference face's in-plane axes (boxes turned from each other by quarter turns) and the
 * incident face beside one side of the reference face (overlapping it along the other axis).
 * As measured on MuJoCo (box 2 in each of the 24 quarter-turn orientations beside each side of
 * each face of box 1, offset along the border by 0 to 0.15, boxes 0.3 x 0.2 x 0.4 at margin
 * 0.3): the points depend on the side. On two sides of each face, fixed by the face ("clip
 * sides": the -u side but on a -z face the +x side, and the -v side but on an x or y face the
 * side of the face's own sign, u, v its in-plane axes in order), the near incident edge comes
 * clipped to the reference face's slab across that side: its end on the clip side of the other
 * axis (clipped to the border, or its corner), and its other end where the edge does not reach
 * beyond both borders, the clipped end first (864 of 864 such poses agree, offsets jittered;
 * test_box_box_margin.py). On the other two sides the incident corners come unclipped
 * (as every corner beside the face comes here without this), and no crossing; there MuJoCo
 * sometimes pairs a reference corner with a point of the incident face by a rule not found
 * (see the top of the file; of the 864 poses on those sides 497 agree, 280 before). Where the
 * faces are tilted from parallel by ~1e-16 (a quarter turn's quaternion jittered by a few ulps)
 * MuJoCo's distances there jump (0.1118 -> 0.1084), as its exactly parallel rule is left; here
 * faces parallel within 1e-12 stay on it. Writes the incident-side points (2D, on the reference face's axes)
 * to x; returns their number, or -1 where the rule does not apply (the incident face not beside
 * a clip side: the corners and crossings as before). */
static int beside_points(gsReal x[4][2], const gsReal q[4][2], const gsReal lim[2], int face,
                         gsReal rs) {
  gsReal lo[2], hi[2];
  quad_extent(q, lo, hi);
  for (int k = 0; k < 2; k++) {
    /* turned about the normal (beyond rounding): not this rule */
    gsReal tol = 1e-9 * (hi[k] - lo[k]);
    for (int c = 0; c < 4; c++)
      if (q[c][k] - lo[k] > tol && hi[k] - q[c][k] > tol) return -1;
  }
  /* the clip side of each in-plane axis: -1 or +1 */
  gsReal clip[2];
  clip_sides(face, rs, clip);
  for (int k = 0; k < 2; k++) {
    int o = 1 - k;
    gsReal s = hi[k] < -lim[k] ? -1 : lo[k] > lim[k] ? 1 : 0;
    if (s == 0 || !(lo[o] < lim[o] && hi[o] > -lim[o])) continue;
    if (s != clip[k]) {  /* the incident corners unclipped, no crossing */
      for (int c = 0; c < 4; c++) x[c][0] = q[c][0], x[c][1] = q[c][1];
      return 4;
    }
    gsReal a = s < 0 ? hi[k] : lo[k];  /* the near edge */
    /* its ends along o: the first on the clip side of o, the second on the other */
    gsReal c = clip[o];
    gsReal f = c < 0 ? lo[o] : hi[o], sec = c < 0 ? hi[o] : lo[o];
    int cutF = c * f > lim[o], cutS = -c * sec > lim[o];
    if (!cutF && !cutS) return -1;  /* both corners, as without this rule */
    if (cutF) f = c * lim[o];
    if (cutS) sec = -c * lim[o];
    int n = 0;
    x[n][k] = a, x[n][o] = cutF ? f : sec, n++;
    if (!(cutF && cutS)) x[n][k] = a, x[n][o] = cutF ? sec : f, n++;
    return n;
  }
  return -1;
}

/* exactly parallel faces apart whose overlap is not empty: as measured on MuJoCo (cubes of half
 * size 0.1, box 1 unturned, box 2 in the 24 quarter-turn orientations beside each of box 1's
 * faces with gaps 0.1 and 0.13, offset by 0.02 and 0.03 in the plane each way, margin 0.3), one
 * reference corner Y of each face (+x face: +y -z; -x: +y +z; +y: +x +z; -y: +x -z; +z: +x -y;
 * -z: -x -y; numbered as the reference corners) that lies outside the incident face on both its
 * axes is paired with the point X = Y + s (C - Y) of the incident face, C the incident corner
 * nearest Y (inside the reference face), s = 1 + 4 hu hv / g^2 (hu, hv the incident face's half
 * sizes, g the gap; exact to 1e-6), where X lies in the incident face and the reference corner
 * opposite Y lies strictly inside the incident face (the incident face reaching beyond both far
 * borders: box 1 a cube of 0.12 against a cube of 0.1, box 1 of 0.1 x 0.11 to 0.125 against
 * the same, the pair comes and goes as each far border is passed, to 1e-3; X does not move with
 * the far borders: s stays 1 + 4 hu hv / g^2) (at gap 0.07, offsets
 * 0.025 and 0.015, X falls outside and MuJoCo gives nothing: not clamped as beside the face, see
 * the top of the file); where box 2's axis along the normal points along n on the
 * +x, -y, +z and -z faces, against it on the other two, and C lies on the positive side of box
 * 2's next axis after that one (cyclically; the one before it where the axis points against n).
 * Where an in-plane axis of box 2 has a rounding component along n (~1e-17, quarter turns
 * through mju_mat2Quat) MuJoCo's choice differs on 12 of 192 such poses: left out there. Over
 * gaps 0.07, 0.1, 0.13 (1728 poses) 1704 agree, 1656 before, none broken. Read in box 1's frame
 * (its face and corner numbers), with box 2's half sizes in s: box 1 turned by the exact half
 * turns and boxes of unequal sizes (0.1 x 0.11 x 0.12 against a cube, 0.12 x 0.1 x 0.11 against
 * 0.1 x 0.09 x 0.1) agree wherever no rounding component enters, none broken. Only box 1's face
 * as the reference was measured. Writes X (2D) and returns Y's number, or -1. */
static int pair_corner(gsReal x[2], const gsReal q[4][2], const gsReal lim[2], const gsBoxFrame* r,
                       int face, gsReal rs, const gsReal n[3], const gsBoxFrame* o, int inc,
                       int flip) {
  static const int corner[3][2] = {{1, 3}, {3, 1}, {1, 0}};  /* by face, then + or - */
  static const int along[3][2] = {{1, -1}, {-1, 1}, {1, 1}};  /* box 2's axis along n or not */
  if (flip) return -1;
  int y = corner[face][rs > 0 ? 0 : 1];
  gsReal Y[2], lo[2], hi[2], C[2];
  ref_corner(Y, y, lim);
  quad_extent(q, lo, hi);
  for (int k = 0; k < 2; k++) {
    if (!(Y[k] < lo[k] || Y[k] > hi[k])) return -1;
    C[k] = Y[k] > hi[k] ? hi[k] : lo[k];
    if (!(fabs(C[k]) < lim[k])) return -1;
    /* the reference corner opposite Y must lie inside the incident face (the incident face
     * reaching beyond the reference face's far borders), as measured */
    if (!(-Y[k] > lo[k] && -Y[k] < hi[k])) return -1;
  }
  gsReal an = gs_dot3(o->a[inc], n);
  if (!(fabs(an) > 1 - 1e-12)) return -1;  /* exactly parallel faces only */
  int isg = an > 0 ? 1 : -1;
  if (isg != along[face][rs > 0 ? 0 : 1]) return -1;
  /* C in the world, on the incident plane */
  gsReal rc[3], cw[3];
  int ru = face == 0 ? 1 : 0, rv = face == 2 ? 1 : 2;
  gs_addScl3(rc, r->c, r->a[face], rs * r->s[face]);
  gs_addScl3(cw, rc, r->a[ru], C[0]);
  gs_addScl3(cw, cw, r->a[rv], C[1]);
  gsReal dif[3];
  gs_sub3(dif, cw, o->c);
  gsReal g = fabs(gs_dot3(dif, n)) - o->s[inc];  /* the gap */
  if (!(g > 0)) return -1;
  int k = (inc + (isg > 0 ? 1 : 2)) % 3;
  if (!(gs_dot3(dif, o->a[k]) > 0)) return -1;
  int u = inc == 0 ? 1 : 0, v = inc == 2 ? 1 : 2;
  /* in-plane axes with a rounding component along n: MuJoCo's choice differs (not found) */
  if (gs_dot3(o->a[u], n) != 0 || gs_dot3(o->a[v], n) != 0) return -1;
  gsReal s = 1 + 4 * o->s[u] * o->s[v] / (g * g);
  for (int j = 0; j < 2; j++) {
    x[j] = Y[j] + s * (C[j] - Y[j]);
    if (x[j] < lo[j] || x[j] > hi[j]) return -1;  /* X must lie in the incident face */
  }
  return y;
}

static int face_contacts(gsContact* con, const gsBoxFrame* r, int face, gsReal rs, const gsReal n[3],
                        const gsBoxFrame* o, int flip, gsReal margin) {
  /* incident face: the face of o whose outward normal is most opposed to n */
  int inc = box_facing(o, n);
  gsReal sgn = gs_dot3(o->a[inc], n) > 0 ? -1 : 1;
  gsReal fc[3];
  gs_addScl3(fc, o->c, o->a[inc], sgn * o->s[inc]);
  int u = inc == 0 ? 1 : 0, v = inc == 2 ? 1 : 2;
  gsReal du[3], dv[3];  /* in-plane half axes, turned to point along n */
  gs_scl3(du, o->a[u], (gs_dot3(o->a[u], n) >= 0 ? 1 : -1) * o->s[u]);
  gs_scl3(dv, o->a[v], (gs_dot3(o->a[v], n) >= 0 ? 1 : -1) * o->s[v]);

  /* reference face: centre, outward normal, its two in-plane axes */
  int ru = face == 0 ? 1 : 0, rv = face == 2 ? 1 : 2;
  gsReal rc[3], rn[3];
  gs_scl3(rn, r->a[face], rs);
  gs_addScl3(rc, r->c, rn, r->s[face]);
  const gsReal lim[2] = {r->s[ru], r->s[rv]};

  /* incident face corners (numbered by bits, see above) projected along n onto the reference
   * plane, in its 2D coordinates */
  gsReal q[4][2];
  for (int c = 0; c < 4; c++) {
    gsReal p[3], dif[3];
    gs_addScl3(p, fc, du, c & 1 ? 1 : -1);
    gs_addScl3(p, p, dv, c & 2 ? 1 : -1);
    gs_sub3(dif, p, rc);
    q[c][0] = gs_dot3(dif, r->a[ru]);
    q[c][1] = gs_dot3(dif, r->a[rv]);
  }

  /* the candidate points in order, each with its incident corner (-1 if none; by position, as
   * a crossing can fall on a corner), and for a crossing its edge and border axis (else -1) */
  gsReal pt[25][2];
  int pc[25], pe[25], pk[25], np = 0;
  static const int edge[4][2] = {{0, 1}, {0, 2}, {1, 3}, {2, 3}};
  int k0 = face == 0 ? 1 : 0;  /* the border axis whose crossings come first */
  /* the signs of u and v in MJCF's frame of the reference face (t1, t2, with t1 x t2 into the
   * reference box): each border axis's lines come on its negative side first, and the
   * reference corners by their sides of t1, then t2; t2 is the axis k0 */
  int t1 = 1 - k0, sgn2[2] = {1, 1};
  if (face < 2) sgn2[1] = rs > 0 ? -1 : 1;  /* x and y faces: v (z) */
  else sgn2[0] = rs > 0 ? 1 : -1;           /* z faces: u (x) */
  gsReal fx[8][2];  /* crossings of the border lines beyond the reference face, in order */
  int nfar = 0;
  for (int e = 0; e < 4; e++) {
    const gsReal* a = q[edge[e][0]];
    const gsReal* b = q[edge[e][1]];
    for (int kk = 0; kk < 2; kk++) {
      int k = kk ? 1 - k0 : k0;
      for (int sd = -1; sd <= 1; sd += 2) {
        int side = sd * sgn2[k];
        gsReal l = side * lim[k];
        if ((a[k] >= l) == (b[k] >= l)) continue;
        gsReal t = (a[k] - l) / (a[k] - b[k]), x[2];
        x[0] = a[0] + t * (b[0] - a[0]);
        x[1] = a[1] + t * (b[1] - a[1]);
        x[k] = l;
        if (fabs(x[1 - k]) > lim[1 - k]) {
          if (nfar < 8 && k == k0) fx[nfar][0] = x[0], fx[nfar][1] = x[1], nfar++;
          continue;
        }
        int dup = 0;
        for (int i = 0; i < np; i++) dup = dup || (pt[i][0] == x[0] && pt[i][1] == x[1]);
        if (dup) continue;
        pt[np][0] = x[0], pt[np][1] = x[1], pe[np] = e, pk[np] = k;
        np++;
      }
    }
  }
  /* reference corners strictly inside the incident quadrilateral */
  int refFirst = np;
  for (int c = 0; c < 4; c++) {
    gsReal x[2];
    x[t1] = (c & 1 ? 1 : -1) * sgn2[t1] * lim[t1];
    x[k0] = (c & 2 ? 1 : -1) * sgn2[k0] * lim[k0];
    if (quad_side(q, x) != 2) continue;
    pt[np][0] = x[0], pt[np][1] = x[1], pe[np] = pk[np] = -1;
    np++;
  }
  int refEnd = np;
  /* the reference corner paired with a point of the incident face (see pair_corner) */
  gsReal pairX[2] = {0, 0};
  int pairY = pair_corner(pairX, q, lim, r, face, rs, n, o, inc, flip);
  if (pairY >= 0) {
    ref_corner(pt[np], pairY, lim);
    pe[np] = pk[np] = -1;
    pairY = np++;
  }

  /* as measured on MuJoCo: on a face axis where an in-plane axis of the incident face is
   * perpendicular to n (to rounding), corner 0 (the deepest, see above) makes a contact even
   * outside the reference face, provided it touches or penetrates and the margin exceeds 1 % of
   * the incident face's larger half size (the threshold measured with the faces parallel; it
   * drops a little with tilt, not reproduced). It comes where corner 0 would, first of the
   * incident corners. Without that margin it comes all the same where it lies within the
   * reference face grown by 1 % of its half sizes plus the margin, |x| <= 1.01 (s + m) on both
   * axes (measured by sliding the corner out across the border: the switch falls there to 1e-17,
   * at margins 0 and 1e-4); so a corner beyond the border by a bit comes twice, as a crossing and
   * as this corner, as in MuJoCo. Where the incident face is a box's y face MuJoCo sometimes
   * reports a reference corner outside the incident face instead (rule not found). */
  int extra = -1, apart0 = 0;
  /* as measured on MuJoCo: where the faces are not parallel and corner 0, the deepest, lies
   * outside the reference face and apart, it comes within the margin with half its distance, at
   * the midpoint, whatever else the overlap gives (first found where the overlap is empty: random
   * poses at margin 0.1, 10 of 3 x 3000 mended, none broken; with points in the overlap, or
   * those dropped beyond the margin or by the tilt: random poses at margin 0.3, 9 of 1000
   * mended, none broken at margins 0 to 0.1; dist and pos agree to rounding) */
  /* an in-plane axis of the incident face perpendicular to n (to rounding): the face is tilted
   * about that axis only (planar boxes, as in a dm_control stacker). As measured on MuJoCo,
   * such a face apart within the margin gives no added corner 0 and reports each point's full
   * distance, as parallel faces do (planar boxes turned at random about y, apart by 0.1 to 0.9
   * margins: agreeing 0 -> 39 of 40 poses at margin 0.01, 22 at 0.1, 13 at 0.3; the others
   * are boxes apart by more than their faces' overlap, see the note on large margins) */
  int perp = fabs(gs_dot3(o->a[u], n)) < 1e-12 || fabs(gs_dot3(o->a[v], n)) < 1e-12;
  gsReal c0[3];
  gs_addScl3(c0, fc, du, -1);
  gs_addScl3(c0, c0, dv, -1);
  gs_sub3(c0, c0, rc);
  if (!(sgn * gs_dot3(o->a[inc], n) < -1 + 1e-12) && !perp && gs_dot3(c0, n) > 0 &&
      (fabs(q[0][0]) > lim[0] || fabs(q[0][1]) > lim[1])) {
    extra = np, apart0 = 1;
    pt[np][0] = q[0][0], pt[np][1] = q[0][1], pe[np] = pk[np] = -1;
    np++;
  }
  int near0 = fabs(q[0][0]) <= 1.01 * (lim[0] + margin) &&
              fabs(q[0][1]) <= 1.01 * (lim[1] + margin);
  if (extra < 0 && (fabs(gs_dot3(o->a[u], n)) < 1e-12 || fabs(gs_dot3(o->a[v], n)) < 1e-12) &&
      (margin > 0.01 * gs_fmax(o->s[u], o->s[v]) || near0) &&
      (fabs(q[0][0]) > lim[0] || fabs(q[0][1]) > lim[1])) {
    extra = np;
    pt[np][0] = q[0][0], pt[np][1] = q[0][1], pe[np] = pk[np] = -1;
    np++;
  }
  int incFirst = np;
  for (int c = 0; c < 4; c++) {
    if (!(-lim[0] <= q[c][0] && q[c][0] < lim[0] && -lim[1] <= q[c][1] && q[c][1] < lim[1]))
      continue;
    pt[np][0] = q[c][0], pt[np][1] = q[c][1], pe[np] = pk[np] = -1;
    np++;
  }
  for (int i = 0; i < np; i++) {
    pc[i] = -1;
    for (int c = 0; c < 4 && pc[i] < 0; c++)
      if (pt[i][0] == q[c][0] && pt[i][1] == q[c][1]) pc[i] = c;
  }
  /* as measured on MuJoCo: where the faces are parallel and apart (within the margin), of the
   * corners of box 1 (geom1) inside the other box's face only the first by box 1's own numbering
   * comes (bits set on the positive side of its own in-plane axes, not turned towards n, so
   * that the rounding of a parallel axis's component along n does not decide), whichever box
   * gives the reference face; box 2's corners inside all come. Boxes 0.3 x 0.2 x 0.4 turned by
   * quarter turns, apart by 0.05 to 0.95 margins (tools/box_box_deep.py --apart, 200 poses):
   * face-axis poses differing from MuJoCo 17 -> 2 at margin 0.01, 31 -> 13 at 0.1, 46 -> 32 at
   * 0.3; one of the two left at 0.01 keeps the other corner (by a numbering not found). This
   * is firstOwn: the incident corner of least own number where box 1 is the incident box, else
   * the reference corner nearest the clip corner (below; it mends 7 of 3600 poses of
   * tools/box_box_deep.py --apart at margins 0.01, 0.1, 0.3, seeds 0 to 2, none broken). */
  int firstOwn = -1, bestOwn = 4;
  if (flip) {
    int su = gs_dot3(o->a[u], n) >= 0, sv = gs_dot3(o->a[v], n) >= 0;
    for (int i = incFirst; i < np; i++) {
      if (i == extra || pc[i] < 0) continue;
      int own = ((pc[i] & 1) ? su : !su) + 2 * ((pc[i] & 2) ? sv : !sv);
      if (own < bestOwn) bestOwn = own, firstOwn = i;
    }
  } else {
    /* as measured on MuJoCo (box 1 unturned, box 2 of 0.09 x 0.1 x 0.11 quarter-turned beside
     * each of the faces of a cube of 0.1, two of its corners inside: 186 poses, each face the
     * same way whatever the turn): the reference corner kept is the first numbered with the bits
     * set away from the clip sides (see beside_points), nearest the clip corner */
    gsReal clip[2];
    clip_sides(face, rs, clip);
    for (int i = refFirst; i < refEnd; i++) {
      int own = (pt[i][0] * clip[0] > 0 ? 0 : 1) + 2 * (pt[i][1] * clip[1] > 0 ? 0 : 1);
      if (own < bestOwn) bestOwn = own, firstOwn = i;
    }
  }

  /* as measured on MuJoCo: an incident face tilted by 30 degrees or more about one in-plane
   * axis (the other axis's component along n 1/2 or above, 1/2 to the bit included: hand-placed
   * poses 248 and 249) gives only the points of its deepest edge (corners 0 and 1, or 0 and 2, and the crossings on that edge), tilted so about
   * both only corner 0. And, measured on every face-axis candidate of the tests' poses and by
   * moving box 2 until the count changes (the switches agree to 1e-12): a point (but the added
   * corner 0 below) is left out where its midpoint pm lies out of the incident box's slab on
   * either in-plane axis of the incident face grown by 1 %, |c| > 1.01 (s + m), and out of the
   * reference face shrunk by 1 % on either of its in-plane axes, 1.01 |c| > s + m (the second
   * half of the edge axis's rule; a crossing or a reference corner on the reference border
   * always meets the shrunk test while m < 0.01 s of that border, see the top of the file, and
   * so it first read as the grown test alone; the crossings beyond the incident face's border
   * along n are the ones it drops). Among the incident corners it drops a deep corner near the
   * reference border whose midpoint sinks out across the incident box's side (hand-placed pose
   * 147 at margin 0; on 3 x 3000 random poses at margin 0 it mends 15 and breaks none, while
   * the shrunk test alone breaks 3 (shallow corners), 14 more with parallel faces and the
   * dm_control stacker's deepest corner on the border; moving box 2 along x, y, z from pose 147
   * at margins 0 and 1e-3 the counts then agree at every offset). */
  int keepEdge = -1;  /* -1 all, 0 or 1 that edge only, 2 corner 0 only */
  gsReal nu = fabs(gs_dot3(o->a[u], n)), nv = fabs(gs_dot3(o->a[v], n));
  if (nu >= 0.5 && nv >= 0.5) keepEdge = 2;
  else if (nv >= 0.5) keepEdge = 0;
  else if (nu >= 0.5) keepEdge = 1;

  /* lift the 2D points back onto the incident plane (along n) and measure their depth */
  gsReal in[3];
  gs_scl3(in, o->a[inc], sgn);  /* outward normal of the incident face */
  gsReal den = gs_dot3(in, n);  /* negative */
  int parallel = den < -1 + 1e-12;
  gsReal nrm[3];
  gs_scl3(nrm, n, flip ? -1 : 1);
  int cnt = 0;
  for (int i = 0; i < np; i++) {
    gsReal p[3], dif[3];
    gs_addScl3(p, rc, r->a[ru], pt[i][0]);
    gs_addScl3(p, p, r->a[rv], pt[i][1]);
    /* move p along n onto the incident plane: (p + t n - fc) . in = 0 */
    gs_sub3(dif, p, fc);
    gsReal t = -gs_dot3(dif, in) / den;
    if (i == pairY) {  /* midway between the corner and its point X, their full distance */
      gsReal ex[2] = {pairX[0] - pt[i][0], pairX[1] - pt[i][1]};
      gsReal dd = sqrt(t * t + ex[0] * ex[0] + ex[1] * ex[1]);
      if (dd > margin) continue;
      gsReal pos[3];
      gs_addScl3(pos, p, r->a[ru], 0.5 * ex[0]);
      gs_addScl3(pos, pos, r->a[rv], 0.5 * ex[1]);
      gs_addScl3(pos, pos, n, 0.5 * t);
      gs_pairSet(con + cnt, dd, pos, nrm);
      cnt++;
      continue;
    }
    if (t > margin || (i == extra && (apart0 ? !(t > 0) : t > 0))) continue;
    /* box 1's later corners inside the other face, on parallel faces apart (see firstOwn) */
    if (parallel && t > 0 && i != firstOwn &&
        (flip ? i >= incFirst && i != extra : i >= refFirst && i < refEnd)) continue;
    if (keepEdge >= 0) {
      int onEdge = pc[i] == 0;
      if (keepEdge < 2)
        onEdge = onEdge || pc[i] == keepEdge + 1 || (pc[i] < 0 && pe[i] == keepEdge);
      if (!onEdge) continue;
    }
    gsReal pos[3];
    gs_addScl3(pos, p, n, 0.5 * t);
    /* a point whose midpoint lies out of the reference face shrunk by 1 % and out of the
     * incident box's slabs across its face grown by 1 % (see above) */
    if (i != extra && out_shrunk(r, pos, face, margin) && out_grown(o, pos, inc, margin)) continue;
    /* as measured on MuJoCo: a midpoint out of the reference box's own slab across the face
     * grown by 1 %, |c| > 1.01 (s + m), and out of the incident box shrunk by 1 % on any of its
     * axes, 1.01 |c| > s + m, is left out, on a face tilted by 30 degrees or more too (see
     * keepEdge; exempting those, as the far face alone required, broke 15 of the sized poses
     * below): the far-face half of the one 1 % rule. A box pressed deeper into a thin box
     * than the thin box's thickness loses its contacts (a cube into a plate of half thickness h:
     * all four go where the overlap passes 4.02 h, bisected to 1e-15 for h = 0.005, 0.01 and
     * cubes of 0.05 and 0.1; MuJoCo 3.3.7 lets such boxes pass through each other), while a
     * midpoint beyond the far face that lies inside the incident box stays (boxes of random
     * sizes deep in each other: of 117 candidate points beyond the far face on edge axes, MuJoCo
     * keeps the 35 whose midpoint lies within 0.973 of every half size of the incident box and
     * drops the 82 beyond 0.996). The same holds with the roles swapped: a midpoint beyond the
     * incident box's far face and out of the reference box shrunk by 1 % is left out.
     * tools/box_box_deep.py --sized: poses differing in count 97 -> 7 of 1200 (seed 0; seed 1:
     * 103 -> 9), none broken */
    if (fabs(box_coord(r, face, pos)) > 1.01 * (r->s[face] + margin) &&
        out_shrunk(o, pos, -1, margin))
      continue;
    if (fabs(box_coord(o, inc, pos)) > 1.01 * (o->s[inc] + margin) &&
        out_shrunk(r, pos, -1, margin))
      continue;
    gsReal dist = (parallel || perp) && t > 0 ? t : 0.5 * t;
    gs_pairSet(con + cnt, dist, pos, nrm);
    cnt++;
  }

  /* as measured on MuJoCo: exactly parallel faces apart, within the margin, whose overlap is
   * empty (offset diagonally, edge over edge or corner over corner) give the crossings of the
   * first border lines (axis k0) beyond the face and then the incident corners beyond it, each
   * where its distance to the reference rectangle is within the margin: that distance as dist,
   * at the midpoint between the point and the rectangle's nearest point (hand-placed poses 127,
   * 136, random pose 94 at margin 0.1; dist and pos agree to rounding). Moving box 2 from pose
   * 136 along -x and -z the counts agree; along -y MuJoCo has a crossing more (not found). */
  if (cnt == 0 && np - (extra >= 0) == 0 && parallel && margin > 0) {
    gsReal dif[3];
    gs_sub3(dif, rc, fc);
    gsReal t = gs_dot3(dif, in) / -den;  /* the faces' gap, the same everywhere */
    gsReal side[4][2];  /* the incident points of a face beside the reference face, see there */
    int nside = beside_points(side, q, lim, face, rs);
    if (nside >= 0) nfar = 0;  /* no crossings there */
    for (int i = 0; i < nfar + (nside >= 0 ? nside : 4); i++) {
      const gsReal* x = i < nfar ? fx[i] : nside >= 0 ? side[i] : q[i - nfar];
      if (i >= nfar && fabs(x[0]) <= lim[0] && fabs(x[1]) <= lim[1]) continue;
      gsReal cl[2], ex[2];
      for (int k = 0; k < 2; k++) cl[k] = gs_fmin(gs_fmax(x[k], -lim[k]), lim[k]), ex[k] = x[k] - cl[k];
      gsReal dd = sqrt(t * t + ex[0] * ex[0] + ex[1] * ex[1]);
      if (!(t > 0) || dd > margin) continue;
      gsReal pos[3];
      gs_addScl3(pos, rc, r->a[ru], cl[0] + 0.5 * ex[0]);
      gs_addScl3(pos, pos, r->a[rv], cl[1] + 0.5 * ex[1]);
      gs_addScl3(pos, pos, n, 0.5 * t);
      gs_pairSet(con + cnt, dd, pos, nrm);
      cnt++;
    }
  }
  return cnt;
}


/* an edge axis whose overlap is empty: the boxes apart within the margin, the incident face
 * projected along n beside the reference face. As measured on MuJoCo (boxes 0.3 x 0.2 x 0.4 apart
 * by 0.05 to 0.95 of the margin at random orientations, tools/box_box_deep.py --apart, seeds 0 to
 * 2 at margins 0.1 and 0.3):
 *   - an incident corner outside the reference face pairs with its projection q clamped into
 *     the reference rectangle: the contact lies midway between the corner and that point, with
 *     dist = sign(t) sqrt(t^2 + |q - clamp(q)|^2), t the corner's distance along n from the
 *     reference plane (negative where the corner lies behind it: MuJoCo then reports a
 *     penetration although the boxes are apart); exact to 1e-9 on every such contact measured;
 *   - a reference corner outside the incident face pairs with its projection along n onto the
 *     incident plane clamped into the incident face: midway, dist their distance (exact where
 *     MuJoCo pairs it so);
 * and which of these come: here every incident corner within the margin, and before them the
 * first reference corner (by number) that lies outside the incident face along one of its
 * in-plane axes only, which then stands in for an incident corner clamped onto it. That choice
 * is MuJoCo's on about half of such poses (32 of 61 over the seeds and margins above; the
 * corners of the deepest edge alone: 27; none came before); the others differ in which corners
 * come: MuJoCo leaves out some incident corners whose clamped point is a reference corner, and
 * sometimes pairs a reference corner with another point of the incident border, by rules not
 * found (the moves of that point with the boxes' positions are linear but along no direction
 * tried: n, the faces' normals, the boxes' axes). */
static int edge_contacts_apart(gsContact* con, const gsBoxFrame* r, int face, gsReal rs,
                               const gsReal n[3], const gsBoxFrame* o, const gsReal fc[3],
                               const gsReal in[3], int oi, int oO, gsReal deep,
                               const gsReal q[4][2], gsReal margin) {
  int ru = face == 0 ? 1 : 0, rv = face == 2 ? 1 : 2;
  gsReal rn[3], rc[3];
  gs_scl3(rn, r->a[face], rs);
  gs_addScl3(rc, r->c, rn, r->s[face]);
  const gsReal lim[2] = {r->s[ru], r->s[rv]};
  gsReal den = gs_dot3(in, n);
  int cnt = 0;
  gsReal used[2] = {0, 0};
  int haveUsed = 0;
  /* the first reference corner outside the incident face along one in-plane axis only */
  for (int c = 0; c < 4; c++) {
    gsReal x[2];
    ref_corner(x, c, lim);
    gsReal p[3], dif[3], qp[3];
    gs_addScl3(p, rc, r->a[ru], x[0]);
    gs_addScl3(p, p, r->a[rv], x[1]);
    gs_sub3(dif, p, fc);
    gs_addScl3(qp, p, n, -gs_dot3(dif, in) / den);
    gs_sub3(dif, qp, fc);
    gsReal u = gs_dot3(dif, o->a[oi]), v = gs_dot3(dif, o->a[oO]);
    if ((fabs(u) > o->s[oi]) == (fabs(v) > o->s[oO])) continue;
    gsReal qc[3], d[3], pos[3];
    gs_addScl3(qc, fc, o->a[oi], gs_fmin(gs_fmax(u, -o->s[oi]), o->s[oi]));
    gs_addScl3(qc, qc, o->a[oO], gs_fmin(gs_fmax(v, -o->s[oO]), o->s[oO]));
    gs_sub3(d, qc, p);
    gsReal dist = gs_norm3(d);
    if (dist <= margin) {
      gs_add3(pos, p, qc);
      gs_scl3(pos, pos, 0.5);
      gs_pairSet(con + cnt, dist, pos, n);
      cnt++;
      used[0] = x[0], used[1] = x[1], haveUsed = 1;
    }
    break;
  }
  /* the incident corners (numbered as in edge_contacts) */
  for (int c = 0; c < 4; c++) {
    gsReal cl[2] = {gs_fmin(gs_fmax(q[c][0], -lim[0]), lim[0]), gs_fmin(gs_fmax(q[c][1], -lim[1]), lim[1])};
    if (haveUsed && cl[0] == used[0] && cl[1] == used[1]) continue;
    gsReal corner[3], p[3], dif[3], pos[3];
    gs_addScl3(corner, fc, o->a[oi], (c & 1 ? -1 : 1) * o->s[oi]);
    gs_addScl3(corner, corner, o->a[oO], (c & 2 ? -deep : deep) * o->s[oO]);
    gs_sub3(dif, corner, rc);
    gsReal t = gs_dot3(dif, rn) / gs_dot3(n, rn);
    gsReal ex0 = q[c][0] - cl[0], ex1 = q[c][1] - cl[1];
    gsReal h = sqrt(t * t + ex0 * ex0 + ex1 * ex1);
    gsReal dist = t > 0 ? h : t < 0 ? -h : 0;
    if (dist > margin) continue;
    gs_addScl3(p, rc, r->a[ru], cl[0]);
    gs_addScl3(p, p, r->a[rv], cl[1]);
    gs_add3(pos, p, corner);
    gs_scl3(pos, pos, 0.5);
    gs_pairSet(con + cnt, dist, pos, n);
    cnt++;
  }
  return cnt;
}

/* contacts on an edge axis n (unit, from box r towards box o) made by an edge axis of box r and
 * edge axis oi of box o. As measured on MuJoCo: the face of r most aligned with n is the
 * reference, the face of o most opposed to n the incident face; the incident face is projected
 * onto the reference plane along n and the points of the overlap come as
 *   - the crossings of the incident edges with the reference face's border,
 *   - the reference corners inside the incident face,
 *   - the incident corners inside the reference face,
 * each with its full distance along n, at the midpoint pm between the two faces.
 * The incident corners are numbered by two bits: bit 0 on axis oi (which is perpendicular to n;
 * 0 on its positive side), bit 1 on the other in-plane axis (0 on the side against n, the deepest).
 * The crossings come by incident edge, 0-1 (the deepest), 0-2, 3-1, 3-2, and along an edge by
 * border in the order (-u, +u, -v, +v) of the reference face's in-plane axes, except on an x
 * face where the order is (-z, +z, -y, +y) (not by position along the edge). MuJoCo leaves out
 *   - every reference corner inside the incident face but the first by number, whatever the
 *     first one's depth (measured by moving box 2 on fixed poses: a deep corner comes exactly
 *     when the one before it, beyond the margin, leaves the incident face);
 *   - every point (crossing, reference corner, incident corner) whose pm lies out of one face's
 *     slab grown by 1 % on an in-plane axis of that face, |c| > 1.01 (s + m), and out of the
 *     other face shrunk by 1 % on an in-plane axis of that face, 1.01 |c| > s + m (s a half
 *     size, m the margin; the face-axis rule, where pm cannot leave the reference face's slabs,
 *     is its second half). Measured in parts at margin 0 (each mending tens of 3 x 3000 random
 *     poses, with the dm_control stacker, the pile of bench/models/pile100.xml and random poses
 *     88 and 90, where moving box 2 along x, y, z MuJoCo's switches and these fall at the same
 *     offset to 1e-12), then whole by tabulating, on 1000 random poses at each of the margins
 *     0, 0.003, 0.01, 0.03, 0.1 and 0.3, every candidate point against these eight tests and
 *     MuJoCo's choice: every cell agrees but 5 of 1244 crossings on edge 3-2 and 1 of 725 on
 *     edge 3-1 (dropped by MuJoCo with no test met) and 22 of 900 reference corners (dropped
 *     mostly with no test met: the corner choice below). Per kind of point and edge the rule first read
 *     otherwise, as the points lie on some box's face: at margin 0 a point on a face is always
 *     out of that box shrunk (see the top of the file), so a test of the other box's grown slab
 *     alone looked like the rule; with the margin the two differ (random poses at margin 0.01:
 *     MuJoCo's switches in the margin fall at m = 0.01 s of the face the point lies on, or at
 *     1.01 |c| - s of the incident box for a crossing inside its face, to 1e-12).
 * Not reproduced: with two reference corners inside, MuJoCo sometimes takes the later one by
 * number (about 1.6 % of random edge-axis poses with a reference corner inside, 1 of the 185
 * edge-axis test poses); no sign of the boxes' axes, the axis or the centre offset against each
 * other, nor the corners' place along the incident edges, decides which. */
static int edge_contacts(gsContact* con, const gsBoxFrame* r, const gsReal n[3],
                        const gsBoxFrame* o, int oi, gsReal margin) {
  /* reference face: the face of r most aligned with n */
  int face = box_facing(r, n);
  gsReal rs = gs_dot3(r->a[face], n) > 0 ? 1 : -1;
  int ru = face == 0 ? 1 : 0, rv = face == 2 ? 1 : 2;
  gsReal rc[3], rn[3];
  gs_scl3(rn, r->a[face], rs);
  gs_addScl3(rc, r->c, rn, r->s[face]);
  gsReal ndotr = gs_dot3(n, rn);

  /* incident face: the face of o most opposed to n */
  int inc = box_facing(o, n);
  if (inc == oi) return 0;  /* degenerate: the edge axis is the face normal */
  int oO = 3 - inc - oi;
  gsReal sgn = gs_dot3(o->a[inc], n) > 0 ? -1 : 1;
  gsReal fc[3], in[3];
  gs_scl3(in, o->a[inc], sgn);
  gs_addScl3(fc, o->c, in, o->s[inc]);
  gsReal den = gs_dot3(in, n);  /* negative */
  gsReal deep = gs_dot3(o->a[oO], n) > 0 ? -1 : 1;  /* side of oO against n */

  /* incident corners, projected along n onto the reference plane (2D, on axes ru, rv) */
  gsReal q[4][2];
  for (int c = 0; c < 4; c++) {
    gsReal p[3], dif[3];
    gs_addScl3(p, fc, o->a[oi], (c & 1 ? -1 : 1) * o->s[oi]);
    gs_addScl3(p, p, o->a[oO], (c & 2 ? -deep : deep) * o->s[oO]);
    gs_sub3(dif, p, rc);
    gs_addScl3(dif, dif, n, -gs_dot3(dif, rn) / ndotr);
    q[c][0] = gs_dot3(dif, r->a[ru]);
    q[c][1] = gs_dot3(dif, r->a[rv]);
  }
  const gsReal lim[2] = {r->s[ru], r->s[rv]};

  /* the candidate points (2D), in order: crossings, the first reference corner, incident
   * corners */
  gsReal pt[24][2];  /* room for 4 crossings per edge (a segment through two corners) */
  int np = 0;
  static const int edge[4][2] = {{0, 1}, {0, 2}, {3, 1}, {3, 2}};
  int k0 = face == 0 ? 1 : 0;  /* the border axis whose crossings come first */
  for (int e = 0; e < 4; e++) {
    const gsReal* a = q[edge[e][0]];
    const gsReal* b = q[edge[e][1]];
    for (int kk = 0; kk < 2; kk++) {
      int k = kk ? 1 - k0 : k0;
      for (int side = -1; side <= 1; side += 2) {
        gsReal l = side * lim[k], da = a[k] - l, db = b[k] - l;
        if (!((da < 0 && db > 0) || (da > 0 && db < 0))) continue;
        gsReal t = da / (da - db), x[2];
        x[0] = a[0] + t * (b[0] - a[0]);
        x[1] = a[1] + t * (b[1] - a[1]);
        x[k] = l;
        if (fabs(x[1 - k]) > lim[1 - k]) continue;
        pt[np][0] = x[0], pt[np][1] = x[1];
        np++;
      }
    }
  }
  /* the first reference corner (by number) inside the incident quadrilateral, whatever its
   * depth; the later ones never come, see above */
  for (int c = 0; c < 4; c++) {
    gsReal x[2];
    ref_corner(x, c, lim);
    if (!quad_side(q, x)) continue;
    pt[np][0] = x[0], pt[np][1] = x[1], np++;
    break;
  }
  for (int c = 0; c < 4; c++) {
    if (fabs(q[c][0]) > lim[0] || fabs(q[c][1]) > lim[1]) continue;
    pt[np][0] = q[c][0], pt[np][1] = q[c][1], np++;
  }

  if (np == 0 && margin > 0)
    return edge_contacts_apart(con, r, face, rs, n, o, fc, in, oi, oO, deep, q, margin);

  int cnt = 0;
  for (int i = 0; i < np; i++) {
    gsReal p[3], dif[3], pm[3];
    gs_addScl3(p, rc, r->a[ru], pt[i][0]);
    gs_addScl3(p, p, r->a[rv], pt[i][1]);
    gs_sub3(dif, p, fc);
    gsReal t = -gs_dot3(dif, in) / den;  /* distance along n to the incident plane */
    if (t > margin) continue;
    gs_addScl3(pm, p, n, 0.5 * t);
    /* out of one face's slab grown by 1 % and out of the other face shrunk by 1 % (see above) */
    int rGrown = out_grown(r, pm, face, margin), oGrown = out_grown(o, pm, inc, margin);
    int rShrunk = out_shrunk(r, pm, face, margin), oShrunk = out_shrunk(o, pm, inc, margin);
    if ((rGrown && oShrunk) || (oGrown && rShrunk)) continue;
    /* and out of either box's slab across its face (reference, incident) grown by 1 % where it
     * also lies out of the other box shrunk by 1 % on any axis (as on a face axis, see there) */
    if (fabs(box_coord(r, face, pm)) > 1.01 * (r->s[face] + margin) &&
        out_shrunk(o, pm, -1, margin))
      continue;
    if (fabs(box_coord(o, inc, pm)) > 1.01 * (o->s[inc] + margin) &&
        out_shrunk(r, pm, -1, margin))
      continue;
    gs_pairSet(con + cnt, t, pm, n);
    cnt++;
  }
  return cnt;
}

int gs_collideBoxBox(const gsModel* m, const gsData* d, gsContact* con, int g1, int g2, gsReal margin) {
  gsBoxFrame b[2];
  box_frame(&b[0], m, d, g1);
  box_frame(&b[1], m, d, g2);
  gsReal dc[3];
  gs_sub3(dc, b[1].c, b[0].c);

  /* separating-axis test: the axis of largest separation, face axes first. Where the faces of
   * the two boxes are parallel the separations are equal on paper and the rounding decides which
   * face is the reference (or whether an edge axis beats both); it follows MuJoCo's where a face
   * axis's separation is (d - own half size) - the other box's radius and an edge axis's is
   * taken in box 1's frame, |pos . n| - (r1 + r2) with n = e_i x (column j of R1^T R2)
   * normalised: on axis-aligned stacks of random sizes the choice is MuJoCo 3.3.7's in 400 of
   * 400 (it shows in which corners come: a lintel on a pillar with a shared border line), while
   * the radius sum for the box's own size made box 1 win every such tie. Contact sets equal on
   * stacks turned as a whole (MuJoCo's poses): about z 188 of 200, at random 140 of 200 (146 and
   * 102 with the world-frame sums for both; 164 and 85 with the edge axis in the world frame).
   * The 60 turned at random that differ have the same points and normal and differ in depth only,
   * by a factor of 2: MuJoCo took an edge axis (full depth) where this takes a face axis (half
   * depth), or the reverse, as the in-plane edge axes of parallel faces are the stack's axis too.
   * Which axis MuJoCo's rounding picks was not found: of 700 turned stacks (seeds 5, 6 at random,
   * 7 about z), the edge/face choice is MuJoCo's in 532 with the sums here; normalizing the axis
   * first or last, by division or by the reciprocal, r2 through R's columns or their cross
   * products, the three sums' groupings, >, >= or the relative 1e-12 tolerance: at most 532. */
  const gsReal faceTol = 1e-12;  /* relative, as measured on MuJoCo */
  gsReal bestSep = -INFINITY, bestN[3] = {0, 0, 1};
  int bestKind = -1, bestI = 0, bestJ = 0;
  for (int k = 0; k < 2; k++) {
    for (int i = 0; i < 3; i++) {
      gsReal n[3];
      gs_copy3(n, b[k].a[i]);
      /* on a tie (centres coincident), as measured on MuJoCo: box 1's axis as it is, box 2's
       * turned (random coincident poses, tools/box_box_deep.py: every box-2 face axis so) */
      gsReal side = gs_dot3(n, dc);
      if (side < 0 || (k == 1 && side == 0)) gs_scl3(n, n, -1);
      gsReal sep = (gs_dot3(dc, n) - b[k].s[i]) - box_radius(&b[1 - k], n);
      /* as measured on MuJoCo: boxes apart with parallel faces (a face of each on the axis,
       * their separations equal on paper) take box 1's face, whatever the rounding: box 2's
       * must beat it by a relative 1e-12 (boxes turned from each other by quarter turns,
       * tools/box_box_deep.py --apart, seeds 0 to 2 at margins 0.01, 0.1 and 0.3: box 1's face
       * gives MuJoCo's contacts wherever box 2's does, and on 66 of the 1800 poses only box
       * 1's). Boxes in contact keep the plain comparison (stacks: see below). */
      gsReal beat = k == 1 && bestKind == 0 && bestSep > 0 ? faceTol * bestSep : 0;
      /* boxes in contact with parallel faces whose separations are equal to the bit: MuJoCo
       * tests the axes of the two boxes in turn (box 1's first, then box 2's, axis by axis),
       * the first met keeping a tie: box 2's face where its axis comes before box 1's (box 2
       * turned so that its axis i lies along box 1's axis bestI > i; measured on boxes turned
       * by a third of a turn about a diagonal, test_box_box_exactly_aligned) */
      int before = k == 1 && bestKind == 0 && !(bestSep > 0) && sep == bestSep && i < bestI;
      if (sep > bestSep + beat || before) bestSep = sep, bestKind = k, bestI = i, gs_copy3(bestN, n);
      /* the largest separation only grows: once beyond the margin, the boxes are apart whatever
       * the remaining axes say (the same answer, without the edge axes' cross products) */
      if (bestSep > margin) return 0;
    }
  }
  gsReal R[3][3], pos[3];  /* box 2's axes and the centres' offset in box 1's frame */
  for (int i = 0; i < 3; i++) {
    pos[i] = gs_dot3(b[0].a[i], dc);
    for (int j = 0; j < 3; j++) R[i][j] = gs_dot3(b[0].a[i], b[1].a[j]);
  }
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      gsReal n[3];
      gs_cross(n, b[0].a[i], b[1].a[j]);
      gsReal len = gs_norm3(n);
      if (len < 1e-6) continue;
      gs_scl3(n, n, 1 / len);
      if (gs_dot3(n, dc) < 0) gs_scl3(n, n, -1);
      gsReal e[3] = {0, 0, 0}, col[3] = {R[0][j], R[1][j], R[2][j]}, nl[3];
      e[i] = 1;
      gs_cross(nl, e, col);
      gs_scl3(nl, nl, 1 / gs_norm3(nl));
      gsReal r2 = 0;
      for (int k = 0; k < 3; k++) {
        gsReal ck[3] = {R[0][k], R[1][k], R[2][k]};
        r2 += b[1].s[k] * fabs(gs_dot3(ck, nl));
      }
      gsReal r1 = b[0].s[0] * fabs(nl[0]) + b[0].s[1] * fabs(nl[1]) + b[0].s[2] * fabs(nl[2]);
      gsReal sep = fabs(gs_dot3(pos, nl)) - (r1 + r2);
      if (sep > bestSep + faceTol * fabs(bestSep))
        bestSep = sep, bestKind = 2, bestI = i, bestJ = j, gs_copy3(bestN, n);
      if (bestSep > margin) return 0;
    }
  }
  if (bestSep > margin) return 0;

  if (bestKind == 0) {
    gsReal rs = gs_dot3(b[0].a[bestI], bestN) > 0 ? 1 : -1;
    return face_contacts(con, &b[0], bestI, rs, bestN, &b[1], 0, margin);
  }
  if (bestKind == 1) {
    gsReal n[3];
    gs_scl3(n, bestN, -1);  /* from box 2 towards box 1 */
    gsReal rs = gs_dot3(b[1].a[bestI], n) > 0 ? 1 : -1;
    return face_contacts(con, &b[1], bestI, rs, n, &b[0], 1, margin);
  }
  return edge_contacts(con, &b[0], bestN, &b[1], bestJ, margin);
}
