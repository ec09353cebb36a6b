/* The contact sensor: the contacts of the constraint problem that match its objects (geom, body,
 * subtree or site volume on the first side, geom, body or subtree on the second), reduced to its
 * slots (the first ones, the deepest, the strongest, or one net contact), each slot filled with
 * the fields its data bits ask for, in their order: found (the number of matches), force and
 * torque in the contact frame, distance, position, normal and first tangent.
 *
 * Direction: a contact's normal points from its geom1 to its geom2; the sensor's points from its
 * first side to its second. Where they disagree the frame's normal and first tangent turn over,
 * which leaves the second tangent, and the force and torque components along them change sign
 * with them (the third, along the second tangent, changes sign instead: the force is the one the
 * other side receives, seen from the first). Contacts without rows (in the gap) match too, with
 * zero force, as in MJCF. */
#include <math.h>

#include "core/arena.h"
#include "core/math.h"
#include "sensor/sensor.h"

/* whether geom g belongs to one side of the sensor: the geom itself, its body, or a body of the
 * subtree (a parent's id is smaller than its children's) */
static int side_has(const gsModel* m, int type, int id, int g) {
  int b = m->geom_bodyid[g];
  switch (type) {
    case GS_OBJ_GEOM: return g == id;
    case GS_OBJ_BODY: return b == id;
    case GS_OBJ_XBODY:
      while (b > id) b = m->body_parentid[b];
      return b == id;
    default: return 1;
  }
}

/* -1: contact c does not match sensor i; 0: it matches as it is; 1: it matches turned over */
static int match(const gsModel* m, const gsData* d, int i, const gsContact* c) {
  int ot = m->sensor_objtype[i], oid = m->sensor_objid[i];
  int rt = m->sensor_reftype[i], rid = m->sensor_refid[i];
  if (ot == GS_OBJ_SITE) {
    if (!gs_insideSite(m, d, oid, c->pos)) return -1;
    ot = GS_OBJ_UNKNOWN;  /* a volume has no side */
  }
  int has1 = ot != GS_OBJ_UNKNOWN, has2 = rt != GS_OBJ_UNKNOWN;
  int g1 = c->geom1, g2 = c->geom2;
  if (has1 && has2) {
    if (side_has(m, ot, oid, g1) && side_has(m, rt, rid, g2)) return 0;
    if (side_has(m, ot, oid, g2) && side_has(m, rt, rid, g1)) return 1;
    return -1;
  }
  if (has1) return side_has(m, ot, oid, g1) ? 0 : side_has(m, ot, oid, g2) ? 1 : -1;
  if (has2) return side_has(m, rt, rid, g2) ? 0 : side_has(m, rt, rid, g1) ? 1 : -1;
  return 0;
}

/* force and torque in the contact frame and the frame, as the sensor sees them */
static void directed(const gsModel* m, const gsData* d, int j, int flip, gsReal f[6], gsReal frame[9]) {
  gs_contactForce(m, d, j, f);
  const gsReal* fr = d->contact[j].frame;
  for (int k = 0; k < 9; k++) frame[k] = fr[k];
  if (flip) {
    for (int k = 0; k < 6; k++) frame[k] = -frame[k];
    f[2] = -f[2];
    f[5] = -f[5];
  }
}

/* the force (3) in the world frame */
static void world_force(const gsModel* m, const gsData* d, int j, int flip, gsReal out[3]) {
  gsReal f[6], frame[9];
  directed(m, d, j, flip, f, frame);
  gs_mulMatTVec3(out, frame, f);
}

/* one slot's fields: found, force, torque, dist, pos, normal, tangent (those the bits ask for) */
static gsReal* write_slot(gsReal* out, int bits, gsReal found, const gsReal f[6], gsReal dist,
                          const gsReal pos[3], const gsReal frame[9]) {
  if (bits & (1 << GS_CONDATA_FOUND)) *out++ = found;
  if (bits & (1 << GS_CONDATA_FORCE)) gs_copy3(out, f), out += 3;
  if (bits & (1 << GS_CONDATA_TORQUE)) gs_copy3(out, f + 3), out += 3;
  if (bits & (1 << GS_CONDATA_DIST)) *out++ = dist;
  if (bits & (1 << GS_CONDATA_POS)) gs_copy3(out, pos), out += 3;
  if (bits & (1 << GS_CONDATA_NORMAL)) gs_copy3(out, frame), out += 3;
  if (bits & (1 << GS_CONDATA_TANGENT)) gs_copy3(out, frame + 3), out += 3;
  return out;
}

/* the net contact: the sum of the matched forces acting at their centroid weighted by the forces'
 * magnitudes, with the torque that keeps the wrench of them all, in the world frame */
static void net_slot(const gsModel* m, const gsData* d, int i, int nmatch, gsReal* out) {
  gsReal F[3] = {0, 0, 0}, T[3] = {0, 0, 0}, PxF[3] = {0, 0, 0}, P[3] = {0, 0, 0}, W = 0;
  for (int j = 0; j < d->ncon; j++) {
    const gsContact* c = d->contact + j;
    int flip;
    if ((flip = match(m, d, i, c)) < 0) continue;
    gsReal f[6], frame[9], fw[3], tw[3], pxf[3];
    directed(m, d, j, flip, f, frame);
    gs_mulMatTVec3(fw, frame, f);
    gs_mulMatTVec3(tw, frame, f + 3);
    gsReal w = gs_norm3(fw);
    gs_cross(pxf, c->pos, fw);
    for (int k = 0; k < 3; k++) F[k] += fw[k], T[k] += tw[k], PxF[k] += pxf[k], P[k] += w * c->pos[k];
    W += w;
  }
  if (W > GS_MINVAL) gs_scl3(P, P, 1 / W);
  else gs_zero3(P);
  /* about P: sum T_j + (p_j - P) x F_j */
  gsReal PxFsum[3], wrench[6];
  gs_cross(PxFsum, P, F);
  for (int k = 0; k < 3; k++) wrench[k] = F[k], wrench[3 + k] = T[k] + PxF[k] - PxFsum[k];
  const gsReal world[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  write_slot(out, m->sensor_intprm[GS_NSENS * i], nmatch, wrench, 0, P, world);
}

void gs_sensorContact(const gsModel* m, gsData* d, int i) {
  gsReal* out = d->sensordata + m->sensor_adr[i];
  const int* prm = m->sensor_intprm + GS_NSENS * i;
  int bits = prm[0], reduce = prm[1], num = prm[2], dim = m->sensor_dim[i];
  gs_zero(out, dim);
  if (num <= 0) return;
  size_t mark = gs_arenaMark(d);
  /* the chosen contacts, best first, with their direction and sort key */
  int* slot = gs_arenaAlloc(d, sizeof(int) * 2 * (size_t)num);
  gsReal* key = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)num);
  if (!slot || !key) {
    gs_arenaRelease(d, mark);
    return;
  }
  int nmatch = 0, nslot = 0;
  for (int j = 0; j < d->ncon; j++) {
    const gsContact* c = d->contact + j;
    int flip = match(m, d, i, c);
    if (flip < 0) continue;
    nmatch++;
    if (reduce == GS_CONREDUCE_NETFORCE) continue;
    gsReal k = 0;
    if (reduce == GS_CONREDUCE_MINDIST) {
      k = c->dist;
    } else if (reduce == GS_CONREDUCE_MAXFORCE) {
      gsReal fw[3];
      world_force(m, d, j, flip, fw);
      k = -gs_norm3(fw);
    }
    /* insert after the equal keys: among equals the earlier contact first */
    int at = nslot;
    if (reduce == GS_CONREDUCE_MINDIST || reduce == GS_CONREDUCE_MAXFORCE)
      while (at > 0 && key[at - 1] > k) at--;
    if (at >= num) continue;
    int last = nslot < num ? nslot : num - 1;
    for (int s = last; s > at; s--) {
      slot[2 * s] = slot[2 * s - 2];
      slot[2 * s + 1] = slot[2 * s - 1];
      key[s] = key[s - 1];
    }
    slot[2 * at] = j, slot[2 * at + 1] = flip, key[at] = k;
    if (nslot < num) nslot++;
  }
  if (reduce == GS_CONREDUCE_NETFORCE) {
    if (nmatch) net_slot(m, d, i, nmatch, out);
  } else {
    for (int s = 0; s < nslot; s++) {
      const gsContact* c = d->contact + slot[2 * s];
      gsReal f[6], frame[9];
      directed(m, d, slot[2 * s], slot[2 * s + 1], f, frame);
      out = write_slot(out, bits, nmatch, f, c->dist, c->pos, frame);
    }
  }
  gs_arenaRelease(d, mark);
}
