/* The soft constraint model (seed 000 §II-C; MJCF's solref/solimp): impedance d(r), the
 * regulariser R = (1 - d)/d * diagApprox (eq. 27) with diagApprox from the inverse weights at
 * qpos0, and the reference acceleration aref = -b (J v) - k d r (eqs. 24, 28). */
#include <math.h>
#include <string.h>

#include "constraint/constraint.h"
#include "core/math.h"

#define GS_MINIMP 0.0001  /* impedance and its midpoint stay inside (0, 1) */
#define GS_MAXIMP 0.9999

static gsReal clampr(gsReal x, gsReal lo, gsReal hi) { return x < lo ? lo : x > hi ? hi : x; }

/* fmax(GS_MINVAL, x), NaN included, without the library call */
static inline gsReal at_least_minval(gsReal x) { return x > GS_MINVAL ? x : GS_MINVAL; }

/* x^p; MJCF's default power 2 (and so p - 1 = 1) by products: pow costs tens of cycles, three
 * times a row, every step */
static gsReal power_of(gsReal x, gsReal p) {
  if (p == 2) return x * x;
  if (p == 1) return x;
  return pow(x, p);
}

/* what a row's solimp and solref give before its residual enters: the clamped shape of the
 * impedance (dmin, dmax, width, midpoint, power and the two scales of its halves), the stiffness
 * k and the damping b. Rows of one kind mostly share their numbers (a model's joint limits), so
 * gs_makeImpedance keeps the last set and its inputs, and works it out again only when a row's
 * numbers differ from them bit for bit: the same operations on the same numbers, the same values
 * (five divisions a row fewer). */
typedef struct {
  gsReal solimp[GS_NIMP], solref[GS_NREF];  /* the inputs, as the row gave them */
  int valid;
  gsReal dmin, dmax, width, mid, power, a, b;
  gsReal k, kb;  /* stiffness and damping */
} row_shape;

/* stiffness k and damping b of solref, given dmax */
static void stiffness_damping(const gsModel* m, const gsReal* solref, gsReal dmax, gsReal* k,
                              gsReal* b) {
  dmax = clampr(dmax, GS_MINIMP, GS_MAXIMP);
  if (solref[0] > 0) {
    gsReal timeconst = solref[0], dampratio = solref[1];
    /* a time constant shorter than two steps cannot be followed: clamp unless refsafe is off */
    if (!(m->opt.disableflags & GS_DSBL_REFSAFE) && timeconst < 2 * m->opt.timestep)
      timeconst = 2 * m->opt.timestep;
    *b = 2 / (dmax * timeconst);
    *k = 1 / (dmax * dmax * timeconst * timeconst * dampratio * dampratio);
  } else {
    /* direct form: -stiffness, -damping; a negative value of either means none */
    *k = solref[0] < 0 ? -solref[0] / (dmax * dmax) : 0;
    *b = solref[1] < 0 ? -solref[1] / dmax : 0;
  }
}

/* the shape of solimp and solref in s, unless s holds it already */
static void shape_of(const gsModel* m, const gsReal* solimp, const gsReal* solref, row_shape* s) {
  if (s->valid && !memcmp(s->solimp, solimp, sizeof s->solimp) &&
      !memcmp(s->solref, solref, sizeof s->solref))
    return;
  memcpy(s->solimp, solimp, sizeof s->solimp);
  memcpy(s->solref, solref, sizeof s->solref);
  s->valid = 1;
  s->dmin = clampr(solimp[0], GS_MINIMP, GS_MAXIMP);
  s->dmax = clampr(solimp[1], GS_MINIMP, GS_MAXIMP);
  s->width = solimp[2] > 0 ? solimp[2] : 0;
  s->mid = clampr(solimp[3], GS_MINIMP, GS_MAXIMP);
  s->power = solimp[4] < 1 ? 1 : solimp[4];
  s->a = 1 / power_of(s->mid, s->power - 1);
  s->b = 1 / power_of(1 - s->mid, s->power - 1);
  stiffness_damping(m, solref, solimp[1], &s->k, &s->kb);
}

/* impedance at residual r and its derivative with respect to r */
static void impedance(const row_shape* s, gsReal r, gsReal* imp, gsReal* impP) {
  gsReal dmin = s->dmin, dmax = s->dmax, width = s->width, mid = s->mid, power = s->power;
  /* |r| >= width gives x >= 1 without the division (rounding keeps the order): most rows, past
   * their limit or into contact, then wait on no division (a NaN residual still divides) */
  gsReal x = 1;
  if (width > GS_MINVAL && !(fabs(r) >= width)) x = fabs(r) / width;
  if (x >= 1) {
    *imp = dmax;
    *impP = 0;
    return;
  }
  gsReal y, dy;
  if (power == 1) {
    y = x, dy = 1;
  } else if (x <= mid) {
    y = s->a * power_of(x, power);
    dy = s->a * power * power_of(x, power - 1);
  } else {
    y = 1 - s->b * power_of(1 - x, power);
    dy = s->b * power * power_of(1 - x, power - 1);
  }
  *imp = dmin + y * (dmax - dmin);
  *impP = dy * (dmax - dmin) / width * (r < 0 ? -1 : 1);
}

/* MJCF's default solref: it replaces a solref whose two numbers are in different formats */
static const gsReal kDefaultSolref[GS_NREF] = {0.02, 1};

/* solref in one format: both numbers positive (time constant, damping ratio) or neither (direct
 * stiffness and damping). A mixed one (a negative time constant, a negative damping ratio) means
 * nothing: as MuJoCo does, use the default instead, and count the event. */
static const gsReal* checked_solref(gsData* d, const gsReal* solref, int row) {
  if ((solref[0] > 0) == (solref[1] > 0)) return solref;
  gs_warning(d, GS_WARN_BADSOLREF, row);
  return kDefaultSolref;
}

/* solref and solimp of row r (the model's, or the override) */
static void row_params(const gsModel* m, const gsData* d, int r, const gsReal** solref,
                       const gsReal** solimp) {
  int id = d->efc_id[r];
  switch (d->efc_type[r]) {
    case GS_CNSTR_EQUALITY:
      *solref = m->eq_solref + GS_NREF * id, *solimp = m->eq_solimp + GS_NIMP * id;
      break;
    case GS_CNSTR_FRICTION_DOF:
      *solref = m->dof_solref + GS_NREF * id, *solimp = m->dof_solimp + GS_NIMP * id;
      break;
    case GS_CNSTR_FRICTION_TENDON:
      *solref = m->tendon_solref_fri + GS_NREF * id, *solimp = m->tendon_solimp_fri + GS_NIMP * id;
      break;
    case GS_CNSTR_LIMIT_JOINT:
      *solref = m->jnt_solref + GS_NREF * id, *solimp = m->jnt_solimp + GS_NIMP * id;
      break;
    case GS_CNSTR_LIMIT_TENDON:
      *solref = m->tendon_solref_lim + GS_NREF * id, *solimp = m->tendon_solimp_lim + GS_NIMP * id;
      break;
    default:
      *solref = d->contact[id].solref, *solimp = d->contact[id].solimp;
      break;
  }
  if (m->opt.enableflags & GS_ENBL_OVERRIDE) *solref = m->opt.o_solref, *solimp = m->opt.o_solimp;
}

/* translational inverse weight of the body pair of a contact: every contact row's diagApprox
 * derives from it (the rotational weight enters none, in MJCF's model) */
static gsReal contact_weight(const gsModel* m, const gsContact* c) {
  int b1 = m->geom_bodyid[c->geom1], b2 = m->geom_bodyid[c->geom2];
  return m->body_invweight0[2 * b1] + m->body_invweight0[2 * b2];
}

/* diagApprox of rows r .. r+n-1 of one constraint */
static int diag_approx(const gsModel* m, gsData* d, int r) {
  int id = d->efc_id[r], type = d->efc_type[r];
  gsReal* out = d->efc_diagApprox + r;
  switch (type) {
    case GS_CNSTR_EQUALITY: {
      int et = m->eq_type[id], o1 = m->eq_obj1id[id], o2 = m->eq_obj2id[id];
      if (et == GS_EQ_CONNECT || et == GS_EQ_WELD) {
        int b1 = o1, b2 = o2;
        if (m->eq_objtype[id] == GS_OBJ_SITE) b1 = m->site_bodyid[o1], b2 = m->site_bodyid[o2];
        gsReal t = m->body_invweight0[2 * b1] + m->body_invweight0[2 * b2];
        gsReal w = m->body_invweight0[2 * b1 + 1] + m->body_invweight0[2 * b2 + 1];
        for (int k = 0; k < 3; k++) out[k] = t;
        if (et == GS_EQ_CONNECT) return 3;
        for (int k = 3; k < 6; k++) out[k] = w;
        return 6;
      }
      if (et == GS_EQ_JOINT) {
        out[0] = m->dof_invweight0[m->jnt_dofadr[o1]];
        if (o2 >= 0) out[0] += m->dof_invweight0[m->jnt_dofadr[o2]];
      } else {
        out[0] = m->tendon_invweight0[o1];
        if (o2 >= 0) out[0] += m->tendon_invweight0[o2];
      }
      return 1;
    }
    case GS_CNSTR_FRICTION_DOF:
      out[0] = m->dof_invweight0[id];
      return 1;
    case GS_CNSTR_LIMIT_JOINT:
      out[0] = m->dof_invweight0[m->jnt_dofadr[id]];
      return 1;
    case GS_CNSTR_FRICTION_TENDON:
    case GS_CNSTR_LIMIT_TENDON:
      out[0] = m->tendon_invweight0[id];
      return 1;
    default: {
      const gsContact* c = d->contact + id;
      int n = gs_contactRows(m, c);
      gsReal tran = contact_weight(m, c);
      if (type == GS_CNSTR_CONTACT_PYRAMIDAL) {
        /* every edge takes the regulariser of the first edge, scaled (below) */
        gsReal f0 = c->friction[0];
        for (int k = 0; k < n; k++) out[k] = tran + f0 * f0 * tran;
      } else {
        for (int k = 0; k < n; k++) out[k] = tran;
      }
      return n;
    }
  }
}

void gs_makeImpedance(const gsModel* m, gsData* d) {
  row_shape shape = {.valid = 0};
  gsReal last_imp = 0, last_ratio = 0;  /* (1 - imp) / imp of the row before */
  int have_ratio = 0;
  for (int r = 0; r < d->nefc;) {
    int n = diag_approx(m, d, r), type = d->efc_type[r], id = d->efc_id[r];
    const gsReal *solref, *solimp;
    row_params(m, d, r, &solref, &solimp);
    solref = checked_solref(d, solref, r);

    /* the residual the impedance sees: the whole residual of an equality, the distance beyond
     * the margin of a limit or contact, none for friction loss */
    gsReal dist = 0;
    if (type == GS_CNSTR_EQUALITY) {
      for (int k = 0; k < n; k++) dist += d->efc_pos[r + k] * d->efc_pos[r + k];
      dist = sqrt(dist);
    } else if (type >= GS_CNSTR_LIMIT_JOINT) {
      dist = d->efc_pos[r] - d->efc_margin[r];
    }
    gsReal imp, impP;
    shape_of(m, solimp, solref, &shape);
    impedance(&shape, dist, &imp, &impP);
    gsReal k = shape.k, b = shape.kb;

    /* rows beyond their impedance's width share its dmax: the ratio of the row before */
    if (!have_ratio || memcmp(&imp, &last_imp, sizeof imp))
      last_imp = imp, last_ratio = (1 - imp) / imp, have_ratio = 1;
    gsReal ratio = last_ratio;
    for (int j = 0; j < n; j++) {
      gsReal* kbip = d->efc_KBIP + 4 * (r + j);
      kbip[0] = k, kbip[1] = b, kbip[2] = imp, kbip[3] = impP;
      d->efc_R[r + j] = at_least_minval(ratio * d->efc_diagApprox[r + j]);
    }

    if (type == GS_CNSTR_CONTACT_PYRAMIDAL || type == GS_CNSTR_CONTACT_ELLIPTIC) {
      const gsContact* c = d->contact + id;
      gsReal mu = c->mu, R0 = d->efc_R[r];
      if (type == GS_CNSTR_CONTACT_PYRAMIDAL) {
        /* all edges: 2 mu^2 times the first edge's regulariser */
        for (int j = 0; j < n; j++) {
          d->efc_R[r + j] = at_least_minval(2 * mu * mu * R0);
          d->efc_diagApprox[r + j] *= 2 * mu * mu;
        }
      } else {
        /* friction rows: R_j mu_j^2 = R_0 mu^2, the condition under which the elliptic cone
         * projection is analytic (seed 000 §III-E); their reference has no stiffness */
        const gsReal* sf = c->solreffriction;
        int own = (sf[0] != 0 || sf[1] != 0) && !(m->opt.enableflags & GS_ENBL_OVERRIDE);
        gsReal kf, bf;
        stiffness_damping(m, own ? checked_solref(d, sf, r) : solref, solimp[1], &kf, &bf);
        for (int j = 1; j < n; j++) {
          gsReal fj = c->friction[j - 1];
          gsReal scale = fj > GS_MINVAL ? mu * mu / (fj * fj) : 1 / GS_MINVAL;
          d->efc_R[r + j] = at_least_minval(R0 * scale);
          d->efc_diagApprox[r + j] *= scale;
          d->efc_KBIP[4 * (r + j)] = 0;
          d->efc_KBIP[4 * (r + j) + 1] = bf;
        }
      }
    }
    r += n;
  }
  /* the divisions in a loop of their own: independent of one another, they overlap there (in
   * the rows' loop each waited on its row's regulariser) */
  for (int r = 0; r < d->nefc; r++) d->efc_D[r] = 1 / d->efc_R[r];
}

void gs_referenceConstraint(const gsModel* m, gsData* d) {
  gs_mulJ(d, d->efc_vel, d->qvel);
  (void)m;
  /* the residual beyond the margin: equality rows have no margin, friction loss rows and the
   * friction rows of elliptic contacts neither position nor margin */
  for (int r = 0; r < d->nefc; r++) {
    const gsReal* kbip = d->efc_KBIP + 4 * r;
    gsReal resid = d->efc_pos[r] - d->efc_margin[r];
    d->efc_aref[r] = -kbip[1] * d->efc_vel[r] - kbip[0] * kbip[2] * resid;
  }
}
