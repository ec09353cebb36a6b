/* Actuation: each actuator's transmission (length and sparse moment arm, after the contacts,
 * which adhesion pulls through), its velocity, activation dynamics, gain, bias and force, and the
 * generalized force of them all; and the next activation, which the integrators share.
 *
 * force = gain(length, velocity, ...) * input + bias(length, velocity, ...), where the input is
 * ctrl without activation dynamics and the (last) activation otherwise; the muscle's gain and bias
 * are the force-length-velocity curves of MJCF's muscle model (doc/modeling.rst, Muscles). */

#include "core/arena.h"
#include "core/math.h"
#include "dynamics/dynamics.h"

/* ---- transmissions ---- */

/* Adhesion: the mean, over the contacts of the body's geoms, of the rate at which the contact
 * closes, -n^T (J(p on geom2's body) - J(p on geom1's body)): a positive force pulls the surfaces
 * together, whichever side the body is on. Contacts in the gap (exclude 1, no constraint rows)
 * count too: pulling across the gap is what a geom's gap is for (XMLreference, adhesion). */
static void body_moment(const gsModel* m, gsData* d, int i, gsReal* moment, gsReal* jacp) {
  int nv = m->nv, b = m->actuator_trnid[2 * i], count = 0;
  for (int k = 0; k < d->ncon; k++) {
    const gsContact* con = d->contact + k;
    int b1 = m->geom_bodyid[con->geom1], b2 = m->geom_bodyid[con->geom2];
    if (b1 != b && b2 != b) continue;
    const gsReal* n = con->frame;
    for (int side = 0; side < 2; side++) {
      int body = side ? b2 : b1;
      if (body == 0) continue;
      gs_jac(m, d, jacp, NULL, con->pos, body);
      gsReal sign = side ? -1 : 1;
      for (int j = gs_bodyLastDof(m, body); j >= 0; j = m->dof_parentid[j])
        moment[j] += sign * (n[0] * jacp[j] + n[1] * jacp[nv + j] + n[2] * jacp[2 * nv + j]);
    }
    count++;
  }
  if (!count) return;
  gsReal s = m->actuator_gear[6 * i] / count;
  for (int j = 0; j < nv; j++) moment[j] *= s;
}

int gs_actuatorMoment(const gsModel* m, gsData* d, int i, gsReal* length, gsReal* moment) {
  if (m->actuator_trntype[i] != GS_TRN_BODY) return gs_transmission(m, d, i, length, moment);
  *length = 0;
  gs_zero(moment, m->nv);
  size_t mark = gs_arenaMark(d);
  gsReal* jacp = gs_arenaAlloc(d, sizeof(gsReal) * 3 * (size_t)(m->nv ? m->nv : 1));
  if (!jacp) return 0;
  body_moment(m, d, i, moment, jacp);
  gs_arenaRelease(d, mark);
  return 1;
}

/* a row's non-zeros from the values of dofs [lo, hi), dofs ascending; nJmom bounds each
 * transmission's pattern (compile) */
static int pack_row(const gsModel* m, gsData* d, int adr, const gsReal* vals, int lo, int hi) {
  for (int j = lo; j < hi && adr < m->nJmom; j++) {
    if (vals[j - lo] == 0) continue;
    d->moment_colind[adr] = j;
    d->actuator_moment[adr++] = vals[j - lo];
  }
  return adr;
}

/* Joint and tendon transmissions write their rows from the few values they have (a joint's
 * dofs, the tendon's span of ten_J); the others go through a dense row of nv. Clearing that row
 * for every actuator was a tenth of the step on many bodies (100 humanoids: 2100 x 2800). */
void gs_transmissionAll(const gsModel* m, gsData* d) {
  int nu = m->nu, nv = m->nv, adr = 0;
  if (!nu) return;
  size_t mark = gs_arenaMark(d);
  gsReal* row = NULL;
  for (int i = 0; i < nu; i++) {
    gsReal length = 0;
    d->moment_rowadr[i] = adr;
    d->moment_rownnz[i] = 0;
    d->actuator_length[i] = 0;
    int type = m->actuator_trntype[i], id = m->actuator_trnid[2 * i];
    if ((type == GS_TRN_JOINT || type == GS_TRN_JOINTINPARENT) &&
        (m->jnt_type[id] == GS_JNT_HINGE || m->jnt_type[id] == GS_JNT_SLIDE)) {
      /* the common case, gs_jointTransmission's one-dof branch written in place: length q gear,
       * the gear as the moment on the joint's dof */
      gsReal gear = m->actuator_gear[6 * i];
      d->actuator_length[i] = d->qpos[m->jnt_qposadr[id]] * gear;
      if (gear != 0 && adr < m->nJmom) {
        d->moment_colind[adr] = m->jnt_dofadr[id];
        d->actuator_moment[adr++] = gear;
      }
    } else if (type == GS_TRN_JOINT || type == GS_TRN_JOINTINPARENT) {
      gsReal vals[6];
      int n = gs_jointTransmission(m, d, i, &length, vals), da = m->jnt_dofadr[id];
      d->actuator_length[i] = length;
      adr = pack_row(m, d, adr, vals, da, da + n);
    } else if (type == GS_TRN_TENDON) {
      int lo, hi;
      gsReal gear = m->actuator_gear[6 * i];
      gs_tendonSpan(m, id, &lo, &hi);
      d->actuator_length[i] = d->ten_length[id] * gear;
      const gsReal* J = d->ten_J + (size_t)id * nv;
      for (int j = lo; j < hi && adr < m->nJmom; j++) {
        gsReal v = J[j] * gear;
        if (v == 0) continue;
        d->moment_colind[adr] = j;
        d->actuator_moment[adr++] = v;
      }
    } else {
      if (!row) row = gs_arenaAlloc(d, sizeof(gsReal) * (size_t)(nv ? nv : 1));
      if (!row || !gs_actuatorMoment(m, d, i, &length, row)) continue;
      d->actuator_length[i] = length;
      adr = pack_row(m, d, adr, row, 0, nv);
    }
    d->moment_rownnz[i] = adr - d->moment_rowadr[i];
  }
  gs_arenaRelease(d, mark);
}

void gs_transmissionVelocity(const gsModel* m, gsData* d, int tendons) {
  int nv = m->nv;
  for (int t = 0; tendons && t < m->ntendon; t++) {
    const gsReal* J = d->ten_J + (size_t)t * nv;
    gsReal v = 0;
    int lo, hi;
    gs_tendonSpan(m, t, &lo, &hi);
    for (int j = lo; j < hi; j++) v += J[j] * d->qvel[j];
    d->ten_velocity[t] = v;
  }
  /* without actuation, MJCF leaves the actuator velocities at zero */
  if (m->opt.disableflags & GS_DSBL_ACTUATION) {
    gs_zero(d->actuator_velocity, m->nu);
    return;
  }
  for (int i = 0; i < m->nu; i++) {
    int adr = d->moment_rowadr[i], n = d->moment_rownnz[i];
    gsReal v = 0;
    for (int k = adr; k < adr + n; k++) v += d->actuator_moment[k] * d->qvel[d->moment_colind[k]];
    d->actuator_velocity[i] = v;
  }
}

/* ---- muscle curves (doc/modeling.rst, Muscles): gainprm = biasprm = range[2], force, scale,
 * lmin, lmax, vmax, fpmax, fvmax ---- */

static gsReal pos_or_min(gsReal x) { return x > GS_MINVAL ? x : GS_MINVAL; }

/* active force-length curve: two quadratic pieces each side of the optimum L = 1 */
gsReal gs_muscleFL(gsReal L, gsReal lmin, gsReal lmax) {
  if (L < lmin || L > lmax) return 0;
  gsReal a = 0.5 * (lmin + 1), b = 0.5 * (1 + lmax), x;
  if (L <= a) {
    x = (L - lmin) / pos_or_min(a - lmin);
    return 0.5 * x * x;
  }
  if (L <= 1) {
    x = (1 - L) / pos_or_min(1 - a);
    return 1 - 0.5 * x * x;
  }
  if (L <= b) {
    x = (L - 1) / pos_or_min(b - 1);
    return 1 - 0.5 * x * x;
  }
  x = (lmax - L) / pos_or_min(lmax - b);
  return 0.5 * x * x;
}

/* force-velocity curve: zero when shortening at vmax, 1 isometric, fvmax when lengthening */
gsReal gs_muscleFV(gsReal V, gsReal fvmax) {
  gsReal y = fvmax - 1;
  if (V <= -1) return 0;
  if (V <= 0) return (V + 1) * (V + 1);
  if (V <= y) return fvmax - (y - V) * (y - V) / pos_or_min(y);
  return fvmax;
}

/* passive force-length curve: quadratic from the optimum length to the middle of [1, lmax],
 * linear beyond */
gsReal gs_muscleFP(gsReal L, gsReal lmax, gsReal fpmax) {
  gsReal b = 0.5 * (1 + lmax);
  if (L <= 1) return 0;
  if (L <= b) {
    gsReal x = (L - 1) / pos_or_min(b - 1);
    return fpmax * 0.5 * x * x;
  }
  gsReal x = (L - b) / pos_or_min(b - 1);
  return fpmax * (0.5 + x);
}

/* the muscle's peak force (a negative force: scale / acc0), its length and velocity normalized
 * by the optimal length L0 implied by lengthrange and range */
static gsReal muscle_normalize(const gsModel* m, int i, const gsReal* prm, gsReal length,
                               gsReal velocity, gsReal* L, gsReal* V) {
  const gsReal* lr = m->actuator_lengthrange + 2 * i;
  gsReal L0 = (lr[1] - lr[0]) / pos_or_min(prm[1] - prm[0]);
  *L = prm[0] + (length - lr[0]) / pos_or_min(L0);
  *V = velocity / pos_or_min(L0 * prm[6]);
  return prm[2] < 0 ? prm[3] / pos_or_min(m->actuator_acc0[i]) : prm[2];
}

static gsReal muscle_gain(const gsModel* m, int i, gsReal length, gsReal velocity) {
  const gsReal* prm = m->actuator_gainprm + GS_NGAIN * i;
  gsReal L, V, F0 = muscle_normalize(m, i, prm, length, velocity, &L, &V);
  return -F0 * gs_muscleFL(L, prm[4], prm[5]) * gs_muscleFV(V, prm[8]);
}

static gsReal muscle_bias(const gsModel* m, int i, gsReal length) {
  const gsReal* prm = m->actuator_biasprm + GS_NBIAS * i;
  gsReal L, V, F0 = muscle_normalize(m, i, prm, length, 0, &L, &V);
  return -F0 * gs_muscleFP(L, prm[5], prm[7]);
}

/* quintic smoothstep on [0, 1] */
static gsReal smoothstep(gsReal x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  return x * x * x * (3 * x * (2 * x - 5) + 10);
}

/* activation dynamics: time constants tau_act (0.5 + 1.5 act) and tau_deact / (0.5 + 1.5 act),
 * blended over a band of width dynprm[2] of ctrl - act (a hard switch when the width is 0) */
gsReal gs_muscleDynamics(gsReal ctrl, gsReal act, const gsReal* prm) {
  gsReal c = ctrl < 0 ? 0 : ctrl > 1 ? 1 : ctrl;
  gsReal a = act < 0 ? 0 : act > 1 ? 1 : act;
  gsReal tau_act = prm[0] * (0.5 + 1.5 * a), tau_deact = prm[1] / (0.5 + 1.5 * a);
  gsReal dctrl = c - act, tau;
  if (prm[2] < GS_MINVAL)
    tau = dctrl > 0 ? tau_act : tau_deact;
  else
    tau = tau_deact + (tau_act - tau_deact) * smoothstep(dctrl / prm[2] + 0.5);
  return dctrl / pos_or_min(tau);
}

/* ---- activations ---- */

gsReal gs_nextActivation(const gsModel* m, int i, gsReal act, gsReal act_dot, gsReal h) {
  if (m->actuator_dyntype[i] == GS_DYN_FILTEREXACT) {
    /* exact for the first-order filter: act_dot = (ctrl - act) / tau */
    gsReal tau = pos_or_min(m->actuator_dynprm[GS_NDYN * i]);
    act += act_dot * tau * (1 - exp(-h / tau));
  } else {
    act += act_dot * h;
  }
  if (m->actuator_actlimited[i]) {
    const gsReal* r = m->actuator_actrange + 2 * i;
    act = act < r[0] ? r[0] : act > r[1] ? r[1] : act;
  }
  return act;
}

int gs_actuatorDisabled(const gsModel* m, int i) {
  int g = m->actuator_group[i];
  return g >= 0 && g < 31 && (m->opt.actuatorgroupdisable >> g) & 1;
}

void gs_advanceActivation(const gsModel* m, gsData* d, const gsReal* act_dot, gsReal h) {
  if (m->opt.disableflags & GS_DSBL_ACTUATION) return;
  for (int i = 0; i < m->nu; i++) {
    int adr = m->actuator_actadr[i], n = m->actuator_actnum[i];
    if (adr < 0 || gs_actuatorDisabled(m, i)) continue;
    for (int k = adr; k < adr + n; k++) d->act[k] = gs_nextActivation(m, i, d->act[k], act_dot[k], h);
  }
}

/* ---- forces ---- */

static gsReal clamp(gsReal x, const gsReal r[2]) { return x < r[0] ? r[0] : x > r[1] ? r[1] : x; }

/* the control actuator i sees: clamped to its range unless clamping is off (NaN stays NaN) */
static gsReal clamped_control(const gsModel* m, const gsData* d, int i) {
  gsReal c = d->ctrl[i];
  if (!(m->opt.disableflags & GS_DSBL_CLAMPCTRL) && m->actuator_ctrllimited[i])
    c = clamp(c, m->actuator_ctrlrange + 2 * i);
  return c;
}

static int bad_value(gsReal x) { return !isfinite(x) || fabs(x) > GS_MAXVAL; }

void gs_actuation(const gsModel* m, gsData* d) {
  int nu = m->nu, nv = m->nv;
  gs_zero(d->qfrc_actuator, nv);
  if (!nu) return;
  /* the controls the actuators see, clamped to their ranges unless clamping is off (NaN stays
   * NaN), held in actuator_force until the forces replace them; one bad control (after
   * clamping, as MJCF checks) makes every control 0 for this pass, with a warning */
  gsReal* ctrl = d->actuator_force;
  int clampon = !(m->opt.disableflags & GS_DSBL_CLAMPCTRL), ok = 1;
  for (int i = 0; i < nu; i++) {
    gsReal c = d->ctrl[i];
    if (clampon && m->actuator_ctrllimited[i]) c = clamp(c, m->actuator_ctrlrange + 2 * i);
    ctrl[i] = c;
    ok &= fabs(c) <= GS_MAXVAL;  /* false for NaN: bad_value, without a branch */
  }
  if (!ok) {
    int i = 0;
    while (!bad_value(ctrl[i])) i++;
    gs_warning(d, GS_WARN_BADCTRL, i);
    gs_zero(ctrl, nu);
  }
  if (m->opt.disableflags & GS_DSBL_ACTUATION) {
    gs_zero(d->actuator_force, nu);
    return;
  }
  gsReal h = m->opt.timestep;

  /* activation dynamics: every actuator with states, disabled groups included (their states
   * are not integrated) */
  for (int i = 0; i < nu; i++) {
    int adr = m->actuator_actadr[i], n = m->actuator_actnum[i];
    if (adr < 0) continue;
    const gsReal* prm = m->actuator_dynprm + GS_NDYN * i;
    gsReal c = ctrl[i], a = d->act[adr + n - 1];
    gsReal* dot = d->act_dot + adr + n - 1;
    switch (m->actuator_dyntype[i]) {
      case GS_DYN_INTEGRATOR: *dot = c; break;
      case GS_DYN_FILTER:
      case GS_DYN_FILTEREXACT: *dot = (c - a) / pos_or_min(prm[0]); break;
      case GS_DYN_MUSCLE: *dot = gs_muscleDynamics(c, a, prm); break;
      case GS_DYN_USER:
        /* one state: the callback's value; several: the callback writes them */
        if (n == 1) *dot = d->cb.act_dyn ? d->cb.act_dyn(m, d, i, d->cb.user) : 0;
        else if (d->cb.act_dyn) d->cb.act_dyn(m, d, i, d->cb.user);
        else gs_zero(d->act_dot + adr, n);
        break;
      default: *dot = 0; break;
    }
  }

  /* gain * input + bias, clamped to forcerange (each actuator's control read before its force
   * is written in its place) */
  int groups = m->opt.actuatorgroupdisable != 0;
  for (int i = 0; i < nu; i++) {
    if (groups && gs_actuatorDisabled(m, i)) {
      d->actuator_force[i] = 0;
      continue;
    }
    gsReal len = d->actuator_length[i], vel = d->actuator_velocity[i];
    int adr = m->actuator_actadr[i], n = m->actuator_actnum[i];
    gsReal input;
    if (adr < 0) {
      input = ctrl[i];
    } else {
      int k = adr + n - 1;
      /* actearly: the force of the activation at the end of this step */
      input = m->actuator_actearly[i] ? gs_nextActivation(m, i, d->act[k], d->act_dot[k], h)
                                      : d->act[k];
    }
    const gsReal* g = m->actuator_gainprm + GS_NGAIN * i;
    const gsReal* b = m->actuator_biasprm + GS_NBIAS * i;
    /* a motor's fixed gain and no bias first: one test each rather than a jump by table */
    gsReal gain = g[0], bias = 0;
    int gaintype = m->actuator_gaintype[i], biastype = m->actuator_biastype[i];
    if (gaintype != GS_GAIN_FIXED) {
      switch (gaintype) {
        case GS_GAIN_AFFINE: gain = g[0] + g[1] * len + g[2] * vel; break;
        case GS_GAIN_MUSCLE: gain = muscle_gain(m, i, len, vel); break;
        case GS_GAIN_USER: gain = d->cb.act_gain ? d->cb.act_gain(m, d, i, d->cb.user) : 0; break;
        default: break;
      }
    }
    if (biastype != GS_BIAS_NONE) {
      switch (biastype) {
        case GS_BIAS_AFFINE: bias = b[0] + b[1] * len + b[2] * vel; break;
        case GS_BIAS_MUSCLE: bias = muscle_bias(m, i, len); break;
        case GS_BIAS_USER: bias = d->cb.act_bias ? d->cb.act_bias(m, d, i, d->cb.user) : 0; break;
        default: break;
      }
    }
    gsReal f = gain * input + bias;
    if (m->actuator_forcelimited[i]) f = clamp(f, m->actuator_forcerange + 2 * i);
    d->actuator_force[i] = f;
  }

  /* a tendon's actuatorfrcrange bounds the sum of the forces of the actuators pulling on it: all
   * of them are scaled by the same factor */
  for (int t = 0; t < m->ntendon; t++) {
    if (!m->tendon_actfrclimited[t]) continue;
    gsReal total = 0;
    for (int i = 0; i < nu; i++)
      if (m->actuator_trntype[i] == GS_TRN_TENDON && m->actuator_trnid[2 * i] == t)
        total += d->actuator_force[i];
    gsReal limited = clamp(total, m->tendon_actfrcrange + 2 * t);
    if (limited == total) continue;
    gsReal s = limited / total;
    for (int i = 0; i < nu; i++)
      if (m->actuator_trntype[i] == GS_TRN_TENDON && m->actuator_trnid[2 * i] == t)
        d->actuator_force[i] *= s;
  }

  /* qfrc_actuator = moment^T force */
  for (int i = 0; i < nu; i++) {
    gsReal f = d->actuator_force[i];
    if (f == 0) continue;
    int adr = d->moment_rowadr[i], n = d->moment_rownnz[i];
    for (int k = adr; k < adr + n; k++) d->qfrc_actuator[d->moment_colind[k]] += d->actuator_moment[k] * f;
  }

  /* actuator gravity compensation (jnt_actgravcomp: the joints' share of qfrc_gravcomp), before
   * the joints' actuatorfrcrange clamp */
  gs_gravcompActuator(m, d);

  /* a hinge's or slide's actuatorfrcrange bounds the actuators' generalized force on its dof
   * (the compiler limits no other joint) */
  for (int j = 0; j < m->njnt; j++) {
    if (!m->jnt_actfrclimited[j]) continue;
    int da = m->jnt_dofadr[j];
    d->qfrc_actuator[da] = clamp(d->qfrc_actuator[da], m->jnt_actfrcrange + 2 * j);
  }
}

int gs_actuationConstant(const gsModel* m, const gsData* d) {
  for (int i = 0; i < m->nu; i++) {
    int type = m->actuator_trntype[i], id = m->actuator_trnid[2 * i];
    if (m->actuator_actadr[i] >= 0 || m->actuator_gaintype[i] != GS_GAIN_FIXED ||
        m->actuator_biastype[i] != GS_BIAS_NONE)
      return 0;
    /* a hinge's or slide's moment is its gear */
    if ((type != GS_TRN_JOINT && type != GS_TRN_JOINTINPARENT) ||
        (m->jnt_type[id] != GS_JNT_HINGE && m->jnt_type[id] != GS_JNT_SLIDE))
      return 0;
    /* a bad control is counted by every pass that sees it */
    if (!(fabs(d->ctrl[i]) <= GS_MAXVAL)) return 0;
  }
  for (int j = 0; j < m->njnt; j++)
    if (m->jnt_actgravcomp[j]) return 0;  /* the gravity compensation moves with the pose */
  return 1;
}

/* ---- derivative of the actuator forces in the velocities, for the implicit integrators ---- */

/* d gain / d velocity of a muscle: through the force-velocity curve */
static gsReal muscle_gain_vel(const gsModel* m, const gsData* d, int i) {
  const gsReal* prm = m->actuator_gainprm + GS_NGAIN * i;
  gsReal L, V, F0 = muscle_normalize(m, i, prm, d->actuator_length[i], d->actuator_velocity[i], &L, &V);
  gsReal y = prm[8] - 1, slope = 0;
  if (V > -1 && V <= 0) slope = 2 * (V + 1);
  else if (V > 0 && V <= y) slope = 2 * (y - V) / pos_or_min(y);
  gsReal L0 = (m->actuator_lengthrange[2 * i + 1] - m->actuator_lengthrange[2 * i]) / pos_or_min(prm[1] - prm[0]);
  return -F0 * gs_muscleFL(L, prm[4], prm[5]) * slope / pos_or_min(L0 * prm[6]);
}

int gs_actuatorVelocityGain(const gsModel* m, const gsData* d, int i, gsReal* dfdv) {
  if (gs_actuatorDisabled(m, i) || (m->opt.disableflags & GS_DSBL_ACTUATION)) return 0;
  gsReal gv = m->actuator_gaintype[i] == GS_GAIN_AFFINE ? m->actuator_gainprm[GS_NGAIN * i + 2]
              : m->actuator_gaintype[i] == GS_GAIN_MUSCLE ? muscle_gain_vel(m, d, i) : 0;
  gsReal bv = m->actuator_biastype[i] == GS_BIAS_AFFINE ? m->actuator_biasprm[GS_NBIAS * i + 2] : 0;
  if (gv == 0 && bv == 0) return 0;
  gsReal v = bv;
  if (gv != 0) {
    int adr = m->actuator_actadr[i], n = m->actuator_actnum[i];
    if (adr < 0) {
      /* the control as written, not clamped to ctrlrange: MJCF differentiates the force with
       * it (measured against MuJoCo 3.3.7: a damper with ctrlrange 0..1 and ctrl -0.5 gets
       * -kv * -0.5 in its implicit matrix); 0 when a control is bad, as the force has it */
      int bad = 0;
      for (int k = 0; k < m->nu && !bad; k++) bad = bad_value(clamped_control(m, d, k));
      v += gv * (bad ? 0 : d->ctrl[i]);
    } else {
      /* the activation at the start of the step, actearly or not (as MJCF differentiates) */
      v += gv * d->act[adr + n - 1];
    }
  }
  *dfdv = v;
  return v != 0;
}
