/**
 * Brent's scalar minimiser with a downhill bracket search: a line-for-line port of `scipy.optimize.brent`
 * (scipy/optimize/_optimize.py: `bracket` with grow_limit 110 and golden ratio 1.618034, then `Brent.optimize`
 * with tol = 1.48e-8, _mintol = 1e-11, _cg = 0.3819660, maxiter = 500). Box-Cox's λ is found with it
 * (boxcox.ts): on the same function values it takes exactly scipy's steps (same iterations and evaluations).
 */

export interface BrentResult {
  x: number;
  fx: number;
  iterations: number;
  evaluations: number;
}

export interface Bracket {
  xa: number;
  xb: number;
  xc: number;
  fa: number;
  fb: number;
  fc: number;
  evaluations: number;
}

const GOLD = 1.618034;
const VERY_SMALL = 1e-21;

/** scipy.optimize.bracket: walk downhill from (xa, xb) until f(xb) is below f(xa) and f(xc). */
export function bracketMinimum(f: (x: number) => number, xa0 = 0, xb0 = 1, growLimit = 110, maxiter = 1000): Bracket {
  let xa = xa0;
  let xb = xb0;
  let fa = f(xa);
  let fb = f(xb);
  if (fa < fb) {
    [xa, xb] = [xb, xa];
    [fa, fb] = [fb, fa];
  }
  let xc = xb + GOLD * (xb - xa);
  let fc = f(xc);
  let evaluations = 3;
  let iter = 0;
  while (fc < fb) {
    const tmp1 = (xb - xa) * (fb - fc);
    const tmp2 = (xb - xc) * (fb - fa);
    const val = tmp2 - tmp1;
    const denom = Math.abs(val) < VERY_SMALL ? 2 * VERY_SMALL : 2 * val;
    let w = xb - ((xb - xc) * tmp2 - (xb - xa) * tmp1) / denom;
    const wlim = xb + growLimit * (xc - xb);
    if (iter > maxiter) throw new RangeError('No valid bracket was found before the iteration limit was reached.');
    iter++;
    let fw: number;
    if ((w - xc) * (xb - w) > 0) {
      fw = f(w);
      evaluations++;
      if (fw < fc) {
        xa = xb;
        xb = w;
        fa = fb;
        fb = fw;
        break;
      } else if (fw > fb) {
        xc = w;
        fc = fw;
        break;
      }
      w = xc + GOLD * (xc - xb);
      fw = f(w);
      evaluations++;
    } else if ((w - wlim) * (wlim - xc) >= 0) {
      w = wlim;
      fw = f(w);
      evaluations++;
    } else if ((w - wlim) * (xc - w) > 0) {
      fw = f(w);
      evaluations++;
      if (fw < fc) {
        xb = xc;
        xc = w;
        w = xc + GOLD * (xc - xb);
        fb = fc;
        fc = fw;
        fw = f(w);
        evaluations++;
      }
    } else {
      w = xc + GOLD * (xc - xb);
      fw = f(w);
      evaluations++;
    }
    xa = xb;
    xb = xc;
    xc = w;
    fa = fb;
    fb = fc;
    fc = fw;
  }
  const cond1 = (fb < fc && fb <= fa) || (fb < fa && fb <= fc);
  const cond2 = (xa < xb && xb < xc) || (xc < xb && xb < xa);
  const cond3 = Number.isFinite(xa) && Number.isFinite(xb) && Number.isFinite(xc);
  if (!(cond1 && cond2 && cond3)) throw new RangeError('The bracket search terminated without finding a valid bracket.');
  return { xa, xb, xc, fa, fb, fc, evaluations };
}

/** scipy.optimize.brent(f, brack=(a, b)): the minimiser of f near the bracket's start. */
export function brentMinimize(f: (x: number) => number, brack: [number, number] = [0, 1], tol = 1.48e-8, maxiter = 500): BrentResult {
  const br = bracketMinimum(f, brack[0], brack[1]);
  const MINTOL = 1e-11;
  const CG = 0.381966;
  let x = br.xb;
  let w = br.xb;
  let v = br.xb;
  let fx = br.fb;
  let fw = br.fb;
  let fv = br.fb;
  let a = br.xa < br.xc ? br.xa : br.xc;
  let b = br.xa < br.xc ? br.xc : br.xa;
  let deltax = 0;
  let rat = 0;
  let evaluations = br.evaluations;
  let iter = 0;
  while (iter < maxiter) {
    const tol1 = tol * Math.abs(x) + MINTOL;
    const tol2 = 2 * tol1;
    const xmid = 0.5 * (a + b);
    if (Math.abs(x - xmid) < tol2 - 0.5 * (b - a)) break;
    if (Math.abs(deltax) <= tol1) {
      deltax = x >= xmid ? a - x : b - x;
      rat = CG * deltax;
    } else {
      const tmp1 = (x - w) * (fx - fv);
      let tmp2 = (x - v) * (fx - fw);
      let p = (x - v) * tmp2 - (x - w) * tmp1;
      tmp2 = 2 * (tmp2 - tmp1);
      if (tmp2 > 0) p = -p;
      tmp2 = Math.abs(tmp2);
      const dxTemp = deltax;
      deltax = rat;
      if (p > tmp2 * (a - x) && p < tmp2 * (b - x) && Math.abs(p) < Math.abs(0.5 * tmp2 * dxTemp)) {
        rat = (p * 1.0) / tmp2;
        const u = x + rat;
        if (u - a < tol2 || b - u < tol2) rat = xmid - x >= 0 ? tol1 : -tol1;
      } else {
        deltax = x >= xmid ? a - x : b - x;
        rat = CG * deltax;
      }
    }
    const u = Math.abs(rat) < tol1 ? (rat >= 0 ? x + tol1 : x - tol1) : x + rat;
    const fu = f(u);
    evaluations++;
    if (fu > fx) {
      if (u < x) a = u;
      else b = u;
      if (fu <= fw || w === x) {
        v = w;
        w = u;
        fv = fw;
        fw = fu;
      } else if (fu <= fv || v === x || v === w) {
        v = u;
        fv = fu;
      }
    } else {
      if (u >= x) a = x;
      else b = x;
      v = w;
      w = x;
      x = u;
      fv = fw;
      fw = fx;
      fx = fu;
    }
    iter++;
  }
  return { x, fx, iterations: iter, evaluations };
}
