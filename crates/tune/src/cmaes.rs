//! A compact (mu/mu_w, lambda)-CMA-ES: the covariance matrix adaptation evolution
//! strategy of Hansen's tutorial ("The CMA Evolution Strategy: A Tutorial",
//! arXiv:1604.00772) and its `purecma.py` reference, with rank-one and rank-mu updates
//! of the covariance and cumulative step-size adaptation.
//!
//! It minimizes. Its random numbers come from the project's [`Rng`], so a run is
//! reproducible from its seed on every machine.

use ai2048_engine::Rng;

use ai2048_bench::BenchError;

/// A CMA-ES optimizer in `n` dimensions, asked for points and told their values.
///
/// Each generation, [`CmaEs::ask`] draws `lambda` points from the normal distribution
/// `N(mean, sigma^2 C)`; [`CmaEs::tell`] takes them back (as drawn, or repaired, e.g.
/// clipped to bounds) with their values, and moves the mean towards the best `mu =
/// lambda / 2` of them, adapts `C` from their steps and from the evolution path of the
/// mean, and adapts `sigma` from the length of a second, conjugate path.
///
/// Points told may differ from the points asked: each step `y = (x - mean) / sigma` is
/// shortened, if need be, to a Mahalanobis length of `sqrt(n) + 2n / (n + 2)`, as
/// Hansen ("Injecting External Solutions Into CMA-ES", 2011) advises, so repaired or
/// injected points cannot derail the adaptation.
///
/// ```
/// use ai2048_tune::CmaEs;
/// // Minimize the sphere function in 4 dimensions, from (3, 3, 3, 3).
/// let mut cma = CmaEs::new(vec![3.0; 4], 1.0, None, 42)?;
/// assert_eq!(cma.population(), 4 + (3.0 * 4f64.ln()) as usize); // 8
/// for _ in 0..150 {
///     let points = cma.ask();
///     let values: Vec<f64> = points.iter().map(|x| x.iter().map(|v| v * v).sum()).collect();
///     cma.tell(&points, &values);
/// }
/// assert!(cma.mean().iter().all(|m| m.abs() < 1e-4), "{:?}", cma.mean());
/// # Ok::<(), ai2048_bench::BenchError>(())
/// ```
#[derive(Clone, Debug)]
pub struct CmaEs {
    n: usize,
    lambda: usize,
    /// The positive recombination weights of the best `mu` points, summing to 1.
    weights: Vec<f64>,
    /// The variance effective selection mass, `1 / sum(w^2)`.
    mueff: f64,
    cc: f64,
    cs: f64,
    c1: f64,
    cmu: f64,
    damps: f64,
    /// The expected length of an `n`-dimensional standard normal vector.
    chi_n: f64,
    mean: Vec<f64>,
    sigma: f64,
    /// The covariance matrix, row-major.
    c: Vec<f64>,
    /// The eigenvectors of `c`, as columns, row-major.
    b: Vec<f64>,
    /// The square roots of the eigenvalues of `c`.
    d: Vec<f64>,
    pc: Vec<f64>,
    ps: Vec<f64>,
    generation: u64,
    rng: Rng,
    /// A second normal sample of Box-Muller, kept for the next draw.
    spare: Option<f64>,
}

impl CmaEs {
    /// The default population size in `n` dimensions: `4 + floor(3 ln n)`.
    ///
    /// ```
    /// assert_eq!(ai2048_tune::CmaEs::default_population(7), 9);
    /// ```
    #[must_use]
    pub fn default_population(n: usize) -> usize {
        4 + (3.0 * (n.max(1) as f64).ln()).floor() as usize
    }

    /// An optimizer starting from `mean` with step size `sigma` and the identity as
    /// covariance, drawing `population` points per generation
    /// ([`CmaEs::default_population`] when `None`) from random numbers seeded by
    /// `seed`.
    ///
    /// # Errors
    ///
    /// [`BenchError::Config`] for no dimensions, a mean that is not finite, a `sigma`
    /// that is not a positive number, or a population below 2.
    pub fn new(
        mean: Vec<f64>,
        sigma: f64,
        population: Option<usize>,
        seed: u64,
    ) -> Result<CmaEs, BenchError> {
        let n = mean.len();
        if n == 0 {
            return Err(BenchError::Config(
                "CMA-ES needs at least one dimension".to_owned(),
            ));
        }
        if !mean.iter().all(|m| m.is_finite()) {
            return Err(BenchError::Config(
                "the starting point of CMA-ES must be finite".to_owned(),
            ));
        }
        if !(sigma.is_finite() && sigma > 0.0) {
            return Err(BenchError::Config(format!(
                "the step size sigma must be a positive number, not {sigma}"
            )));
        }
        let lambda = population.unwrap_or_else(|| CmaEs::default_population(n));
        if lambda < 2 {
            return Err(BenchError::Config(format!(
                "the population must be at least 2, not {lambda}"
            )));
        }
        let mu = lambda / 2;
        let raw: Vec<f64> = (1..=mu)
            .map(|i| ((lambda as f64 + 1.0) / 2.0).ln() - (i as f64).ln())
            .collect();
        let total: f64 = raw.iter().sum();
        let weights: Vec<f64> = raw.iter().map(|w| w / total).collect();
        let mueff = 1.0 / weights.iter().map(|w| w * w).sum::<f64>();
        let nf = n as f64;
        let cc = (4.0 + mueff / nf) / (nf + 4.0 + 2.0 * mueff / nf);
        let cs = (mueff + 2.0) / (nf + mueff + 5.0);
        let c1 = 2.0 / ((nf + 1.3).powi(2) + mueff);
        let cmu = (1.0 - c1).min(2.0 * (mueff - 2.0 + 1.0 / mueff) / ((nf + 2.0).powi(2) + mueff));
        let damps = 1.0 + 2.0 * (((mueff - 1.0) / (nf + 1.0)).sqrt() - 1.0).max(0.0) + cs;
        let chi_n = nf.sqrt() * (1.0 - 1.0 / (4.0 * nf) + 1.0 / (21.0 * nf * nf));
        let identity: Vec<f64> = (0..n * n)
            .map(|k| if k / n == k % n { 1.0 } else { 0.0 })
            .collect();
        Ok(CmaEs {
            n,
            lambda,
            weights,
            mueff,
            cc,
            cs,
            c1,
            cmu,
            damps,
            chi_n,
            mean,
            sigma,
            c: identity.clone(),
            b: identity,
            d: vec![1.0; n],
            pc: vec![0.0; n],
            ps: vec![0.0; n],
            generation: 0,
            rng: Rng::new(seed),
            spare: None,
        })
    }

    /// The number of dimensions.
    #[must_use]
    pub fn dim(&self) -> usize {
        self.n
    }

    /// The points drawn per generation, `lambda`.
    #[must_use]
    pub fn population(&self) -> usize {
        self.lambda
    }

    /// The mean of the distribution: the current estimate of the optimum.
    #[must_use]
    pub fn mean(&self) -> &[f64] {
        &self.mean
    }

    /// The step size.
    #[must_use]
    pub fn sigma(&self) -> f64 {
        self.sigma
    }

    /// The generations told so far.
    #[must_use]
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The standard deviation of the distribution along each coordinate:
    /// `sigma * sqrt(C_ii)`.
    #[must_use]
    pub fn std_devs(&self) -> Vec<f64> {
        (0..self.n)
            .map(|i| self.sigma * self.c[i * self.n + i].sqrt())
            .collect()
    }

    /// The ratio of the largest to the smallest eigenvalue of the covariance matrix.
    #[must_use]
    pub fn condition(&self) -> f64 {
        let max = self.d.iter().copied().fold(0.0, f64::max);
        let min = self.d.iter().copied().fold(f64::INFINITY, f64::min);
        (max / min).powi(2)
    }

    /// Draws the points of a generation: `population` samples of `N(mean, sigma^2 C)`.
    pub fn ask(&mut self) -> Vec<Vec<f64>> {
        (0..self.lambda)
            .map(|_| {
                let z: Vec<f64> = (0..self.n).map(|_| self.normal()).collect();
                // x = mean + sigma * B * (D .* z)
                let dz: Vec<f64> = z.iter().zip(&self.d).map(|(z, d)| z * d).collect();
                (0..self.n)
                    .map(|i| {
                        let bdz: f64 = (0..self.n).map(|j| self.b[i * self.n + j] * dz[j]).sum();
                        self.mean[i] + self.sigma * bdz
                    })
                    .collect()
            })
            .collect()
    }

    /// Takes back the points of a generation with their values (lower is better) and
    /// updates the distribution. The points may be those [`CmaEs::ask`] drew, or
    /// repaired versions of them; a value that is NaN counts as the worst.
    ///
    /// # Panics
    ///
    /// When `points` and `values` differ in length, there are fewer than 2 points,
    /// or a point has the wrong dimension.
    pub fn tell(&mut self, points: &[Vec<f64>], values: &[f64]) {
        let n = self.n;
        assert_eq!(points.len(), values.len(), "one value per point");
        assert!(points.len() >= 2, "CMA-ES needs at least 2 points");
        assert!(
            points.iter().all(|p| p.len() == n),
            "points of dimension {n}"
        );
        let mut order: Vec<usize> = (0..points.len()).collect();
        let key = |i: usize| {
            if values[i].is_nan() {
                f64::INFINITY
            } else {
                values[i]
            }
        };
        order.sort_by(|&a, &b| key(a).total_cmp(&key(b)));
        let mu = self.weights.len().min(points.len());
        let weights = &self.weights[..mu];
        let scale: f64 = weights.iter().sum();

        // The steps of the best points, y = (x - mean) / sigma, and their whitened
        // versions C^(-1/2) y, both shortened to the Mahalanobis length limit.
        let limit = (n as f64).sqrt() + 2.0 * n as f64 / (n as f64 + 2.0);
        let mut ys = Vec::with_capacity(mu);
        let mut zs = Vec::with_capacity(mu);
        for &k in &order[..mu] {
            let mut y: Vec<f64> = points[k]
                .iter()
                .zip(&self.mean)
                .map(|(x, m)| (x - m) / self.sigma)
                .collect();
            let mut z = self.inv_sqrt_c(&y);
            let norm = z.iter().map(|v| v * v).sum::<f64>().sqrt();
            if norm > limit {
                let f = limit / norm;
                y.iter_mut().for_each(|v| *v *= f);
                z.iter_mut().for_each(|v| *v *= f);
            }
            ys.push(y);
            zs.push(z);
        }
        let weighted = |vs: &[Vec<f64>]| -> Vec<f64> {
            (0..n)
                .map(|i| weights.iter().zip(vs).map(|(w, v)| w * v[i]).sum::<f64>() / scale)
                .collect()
        };
        let yw = weighted(&ys);
        let zw = weighted(&zs);

        for (m, y) in self.mean.iter_mut().zip(&yw) {
            *m += self.sigma * y;
        }
        let fs = (self.cs * (2.0 - self.cs) * self.mueff).sqrt();
        for (p, z) in self.ps.iter_mut().zip(&zw) {
            *p = (1.0 - self.cs) * *p + fs * z;
        }
        let ps2: f64 = self.ps.iter().map(|p| p * p).sum();
        let decay = 1.0 - (1.0 - self.cs).powf(2.0 * (self.generation as f64 + 1.0));
        let hsig = ps2 / decay / (n as f64) < 2.0 + 4.0 / (n as f64 + 1.0);
        let fc = (self.cc * (2.0 - self.cc) * self.mueff).sqrt();
        for (p, y) in self.pc.iter_mut().zip(&yw) {
            *p = (1.0 - self.cc) * *p + if hsig { fc * y } else { 0.0 };
        }
        // Rank-one and rank-mu updates; without hsig, make up for the variance lost
        // by stalling pc.
        let c1a = self.c1 * (1.0 - if hsig { 0.0 } else { self.cc * (2.0 - self.cc) });
        let keep = 1.0 - c1a - self.cmu;
        for i in 0..n {
            for j in 0..=i {
                let rank_mu: f64 = weights
                    .iter()
                    .zip(&ys)
                    .map(|(w, y)| w / scale * y[i] * y[j])
                    .sum();
                let v = keep * self.c[i * n + j]
                    + self.c1 * self.pc[i] * self.pc[j]
                    + self.cmu * rank_mu;
                self.c[i * n + j] = v;
                self.c[j * n + i] = v;
            }
        }
        let ps_norm = ps2.sqrt();
        self.sigma *= ((self.cs / self.damps) * (ps_norm / self.chi_n - 1.0))
            .min(1.0)
            .exp();
        self.generation += 1;
        self.decompose();
    }

    /// `C^(-1/2) y = B D^-1 B^T y`.
    fn inv_sqrt_c(&self, y: &[f64]) -> Vec<f64> {
        let n = self.n;
        let bty: Vec<f64> = (0..n)
            .map(|j| (0..n).map(|i| self.b[i * n + j] * y[i]).sum::<f64>() / self.d[j])
            .collect();
        (0..n)
            .map(|i| (0..n).map(|j| self.b[i * n + j] * bty[j]).sum())
            .collect()
    }

    /// Recomputes `B` and `D` from `C`.
    fn decompose(&mut self) {
        let (values, vectors) = symmetric_eigen(&self.c, self.n);
        let top = values
            .iter()
            .copied()
            .fold(0.0, f64::max)
            .max(f64::MIN_POSITIVE);
        // Round-off can make tiny eigenvalues negative; keep C positive definite.
        self.d = values.iter().map(|&v| v.max(top * 1e-20).sqrt()).collect();
        self.b = vectors;
    }

    /// A standard normal sample (Box-Muller).
    fn normal(&mut self) -> f64 {
        if let Some(z) = self.spare.take() {
            return z;
        }
        // 1 - unit() is in (0, 1], so its logarithm is finite.
        let r = (-2.0 * (1.0 - self.rng.unit()).ln()).sqrt();
        let theta = core::f64::consts::TAU * self.rng.unit();
        self.spare = Some(r * theta.sin());
        r * theta.cos()
    }
}

/// The eigenvalues and eigenvectors (as columns of a row-major matrix) of the
/// symmetric `n` by `n` matrix `a`, by cyclic Jacobi rotations.
fn symmetric_eigen(a: &[f64], n: usize) -> (Vec<f64>, Vec<f64>) {
    let mut a = a.to_vec();
    let mut v: Vec<f64> = (0..n * n)
        .map(|k| if k / n == k % n { 1.0 } else { 0.0 })
        .collect();
    for _sweep in 0..64 {
        let off: f64 = (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .map(|(i, j)| a[i * n + j] * a[i * n + j])
            .sum();
        let diag: f64 = (0..n).map(|i| a[i * n + i] * a[i * n + i]).sum();
        if off <= 1e-30 * diag || off == 0.0 {
            break;
        }
        for p in 0..n {
            for q in p + 1..n {
                let apq = a[p * n + q];
                if apq == 0.0 {
                    continue;
                }
                let theta = (a[q * n + q] - a[p * n + p]) / (2.0 * apq);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                // A <- J^T A J, V <- V J, with J the rotation in the (p, q) plane.
                for k in 0..n {
                    let (akp, akq) = (a[k * n + p], a[k * n + q]);
                    a[k * n + p] = c * akp - s * akq;
                    a[k * n + q] = s * akp + c * akq;
                }
                for k in 0..n {
                    let (apk, aqk) = (a[p * n + k], a[q * n + k]);
                    a[p * n + k] = c * apk - s * aqk;
                    a[q * n + k] = s * apk + c * aqk;
                }
                for k in 0..n {
                    let (vkp, vkq) = (v[k * n + p], v[k * n + q]);
                    v[k * n + p] = c * vkp - s * vkq;
                    v[k * n + q] = s * vkp + c * vkq;
                }
            }
        }
    }
    ((0..n).map(|i| a[i * n + i]).collect(), v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sphere(x: &[f64]) -> f64 {
        x.iter().map(|v| v * v).sum()
    }

    fn rosenbrock(x: &[f64]) -> f64 {
        x.windows(2)
            .map(|w| 100.0 * (w[1] - w[0] * w[0]).powi(2) + (1.0 - w[0]).powi(2))
            .sum()
    }

    /// An ill-conditioned ellipsoid: axis i scaled by 1000^(i / (n - 1)).
    fn ellipsoid(x: &[f64]) -> f64 {
        let n = x.len() as f64;
        x.iter()
            .enumerate()
            .map(|(i, v)| 1e6f64.powf(i as f64 / (n - 1.0)) * v * v)
            .sum()
    }

    /// Runs CMA-ES on `f` until it is below `target` or `max_generations` pass;
    /// returns the best value seen and the generations used.
    fn minimize(
        f: fn(&[f64]) -> f64,
        start: Vec<f64>,
        sigma: f64,
        seed: u64,
        target: f64,
        max_generations: u64,
    ) -> (f64, u64) {
        let mut cma = CmaEs::new(start, sigma, None, seed).expect("valid");
        let mut best = f64::INFINITY;
        while cma.generation() < max_generations && best > target {
            let points = cma.ask();
            let values: Vec<f64> = points.iter().map(|x| f(x)).collect();
            best = values.iter().copied().fold(best, f64::min);
            cma.tell(&points, &values);
        }
        (best, cma.generation())
    }

    #[test]
    fn eigen_decomposition_reconstructs() {
        let n = 4;
        let a = [
            4.0, 1.0, 0.5, 0.0, //
            1.0, 3.0, 0.2, 0.1, //
            0.5, 0.2, 2.0, 0.3, //
            0.0, 0.1, 0.3, 1.0,
        ];
        let (values, v) = symmetric_eigen(&a, n);
        for i in 0..n {
            for j in 0..n {
                let r: f64 = (0..n)
                    .map(|k| v[i * n + k] * values[k] * v[j * n + k])
                    .sum();
                assert!((r - a[i * n + j]).abs() < 1e-12, "{i},{j}: {r}");
                let o: f64 = (0..n).map(|k| v[k * n + i] * v[k * n + j]).sum();
                assert!((o - f64::from(u8::from(i == j))).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn sphere_converges() {
        for seed in [1, 2, 3] {
            let (best, generations) = minimize(sphere, vec![3.0; 8], 1.0, seed, 1e-12, 1000);
            assert!(best <= 1e-12, "seed {seed}: {best} after {generations}");
            // About 200 generations of 10 points in 8 dimensions.
            assert!(generations < 400, "seed {seed}: {generations} generations");
        }
    }

    #[test]
    fn rosenbrock_converges() {
        for (n, seed) in [(5, 7), (8, 8)] {
            let (best, generations) = minimize(rosenbrock, vec![0.0; n], 0.5, seed, 1e-10, 5000);
            assert!(best <= 1e-10, "n {n}: {best} after {generations}");
        }
    }

    #[test]
    fn ill_conditioned_ellipsoid_converges() {
        // Needs the covariance to learn a condition of 1e6.
        let (best, generations) = minimize(ellipsoid, vec![1.0; 6], 1.0, 5, 1e-10, 3000);
        assert!(best <= 1e-10, "{best} after {generations}");
    }

    #[test]
    fn deterministic_with_a_seed() {
        let run = |seed| {
            let mut cma = CmaEs::new(vec![1.0; 5], 0.3, Some(7), seed).expect("valid");
            for _ in 0..20 {
                let points = cma.ask();
                let values: Vec<f64> = points.iter().map(|x| rosenbrock(x)).collect();
                cma.tell(&points, &values);
            }
            (cma.mean().to_vec(), cma.sigma())
        };
        assert_eq!(run(9), run(9));
        assert_ne!(run(9), run(10));
    }

    #[test]
    fn repaired_points_converge_to_the_bound() {
        // The optimum (2, 2, 2) lies outside the box [-1, 1]^3: told the clipped
        // points, CMA-ES settles at the corner (1, 1, 1).
        let mut cma = CmaEs::new(vec![0.0; 3], 0.5, None, 3).expect("valid");
        for _ in 0..200 {
            let points: Vec<Vec<f64>> = cma
                .ask()
                .into_iter()
                .map(|x| x.into_iter().map(|v| v.clamp(-1.0, 1.0)).collect())
                .collect();
            let values: Vec<f64> = points
                .iter()
                .map(|x| x.iter().map(|v| (v - 2.0) * (v - 2.0)).sum())
                .collect();
            cma.tell(&points, &values);
        }
        assert!(
            cma.mean().iter().all(|m| (m - 1.0).abs() < 0.05),
            "{:?}",
            cma.mean()
        );
        assert!(cma.sigma().is_finite());
    }

    #[test]
    fn normal_samples_are_standard() {
        let mut cma = CmaEs::new(vec![0.0], 1.0, None, 11).expect("valid");
        let xs: Vec<f64> = (0..20_000).map(|_| cma.normal()).collect();
        let mean = xs.iter().sum::<f64>() / xs.len() as f64;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / xs.len() as f64;
        assert!(mean.abs() < 0.03, "{mean}");
        assert!((var - 1.0).abs() < 0.05, "{var}");
    }

    #[test]
    fn bad_settings_are_errors() {
        assert!(CmaEs::new(vec![], 1.0, None, 0).is_err());
        assert!(CmaEs::new(vec![0.0], 0.0, None, 0).is_err());
        assert!(CmaEs::new(vec![0.0], f64::NAN, None, 0).is_err());
        assert!(CmaEs::new(vec![f64::INFINITY], 1.0, None, 0).is_err());
        assert!(CmaEs::new(vec![0.0], 1.0, Some(1), 0).is_err());
        let cma = CmaEs::new(vec![0.0; 7], 1.0, Some(2), 0).expect("valid");
        assert_eq!((cma.population(), cma.dim()), (2, 7));
        assert_eq!(CmaEs::default_population(1), 4);
        assert_eq!(CmaEs::default_population(17), 12);
    }

    #[test]
    fn nan_values_count_as_worst() {
        let mut cma = CmaEs::new(vec![0.0; 2], 1.0, Some(6), 4).expect("valid");
        for _ in 0..100 {
            let points = cma.ask();
            let values: Vec<f64> = points
                .iter()
                .map(|x| if x[0] > 2.0 { f64::NAN } else { sphere(x) })
                .collect();
            cma.tell(&points, &values);
        }
        assert!(cma.mean().iter().all(|m| m.abs() < 1e-3));
    }
}
