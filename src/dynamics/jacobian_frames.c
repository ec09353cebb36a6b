/* Jacobians of the frames a model names (body origins, body coms, sites, geoms), of a subtree's
 * centre of mass and of an axis fixed to a body, all on gs_jac's motion subspaces (cdof, after the
 * position stage). A bad id gives all-zero Jacobians: the caller's arrays are always written. */
#include "core/math.h"
#include "dynamics/dynamics.h"

static void zero_jac(const gsModel* m, gsReal* jacp, gsReal* jacr) {
  if (jacp) gs_zero(jacp, 3 * m->nv);
  if (jacr) gs_zero(jacr, 3 * m->nv);
}

void gs_jacBody(const gsModel* m, const gsData* d, gsReal* jacp, gsReal* jacr, int body) {
  if (body < 0 || body >= m->nbody) { zero_jac(m, jacp, jacr); return; }
  gs_jac(m, d, jacp, jacr, d->xpos + 3 * body, body);
}

void gs_jacBodyCom(const gsModel* m, const gsData* d, gsReal* jacp, gsReal* jacr, int body) {
  if (body < 0 || body >= m->nbody) { zero_jac(m, jacp, jacr); return; }
  gs_jac(m, d, jacp, jacr, d->xipos + 3 * body, body);
}

void gs_jacSite(const gsModel* m, const gsData* d, gsReal* jacp, gsReal* jacr, int site) {
  if (site < 0 || site >= m->nsite) { zero_jac(m, jacp, jacr); return; }
  gs_jac(m, d, jacp, jacr, d->site_xpos + 3 * site, m->site_bodyid[site]);
}

void gs_jacGeom(const gsModel* m, const gsData* d, gsReal* jacp, gsReal* jacr, int geom) {
  if (geom < 0 || geom >= m->ngeom) { zero_jac(m, jacp, jacr); return; }
  gs_jac(m, d, jacp, jacr, d->geom_xpos + 3 * geom, m->geom_bodyid[geom]);
}

static int in_subtree(const gsModel* m, int b, int root) {
  while (b > root) b = m->body_parentid[b];
  return b == root;
}

/* the subtree's com is sum_i m_i xipos_i / sum_i m_i over its bodies i, so its Jacobian is the
 * mass-weighted mean of the bodies' com Jacobians; each body adds along the chain of dofs that
 * move it, without a scratch Jacobian */
void gs_jacSubtreeCom(const gsModel* m, const gsData* d, gsReal* jacp, int body) {
  int nv = m->nv;
  if (!jacp) return;
  gs_zero(jacp, 3 * nv);
  if (body < 0 || body >= m->nbody) return;
  gsReal total = m->body_subtreemass[body];
  if (!(total > GS_MINVAL)) return;  /* a massless subtree has no com to move */
  for (int b = body; b < m->nbody; b++) {
    if (m->body_mass[b] == 0 || !in_subtree(m, b, body)) continue;
    gsReal w = m->body_mass[b] / total, off[3];
    gs_sub3(off, d->xipos + 3 * b, d->subtree_com + 3 * m->body_rootid[b]);
    for (int j = gs_bodyLastDof(m, b); j >= 0; j = m->dof_parentid[j]) {
      const gsReal* s = d->cdof + 6 * j;
      gsReal lin[3];
      gs_cross(lin, s, off);
      for (int i = 0; i < 3; i++) jacp[i * nv + j] += w * (s[3 + i] + lin[i]);
    }
  }
}

/* an axis fixed to the body turns as d(axis)/dt = omega x axis: column j is cdof_ang_j x axis */
void gs_jacPointAxis(const gsModel* m, const gsData* d, gsReal* jacpoint, gsReal* jacaxis,
                     const gsReal point[3], const gsReal axis[3], int body) {
  int nv = m->nv;
  if (jacaxis) gs_zero(jacaxis, 3 * nv);
  gs_jac(m, d, jacpoint, NULL, point, body);
  if (!jacaxis || body < 0 || body >= m->nbody) return;
  for (int j = gs_bodyLastDof(m, body); j >= 0; j = m->dof_parentid[j]) {
    gsReal c[3];
    gs_cross(c, d->cdof + 6 * j, axis);
    for (int i = 0; i < 3; i++) jacaxis[i * nv + j] = c[i];
  }
}
