/**
 * Order statistics for benchmark samples: nearest-rank percentiles, medians,
 * and the small number formatting the table uses.
 *
 * Contract: pure; an empty sample yields `NaN` (printed as `n/a`), never a throw.
 *
 * @module
 */

/** Nearest-rank percentile `q` in [0, 1] of `values` (unsorted input is fine). */
export function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)))
  return sorted[rank - 1]!
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

export function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0)
}

export interface Summary {
  n: number
  p50: number
  p95: number
  min: number
  max: number
}

export function summarize(values: readonly number[]): Summary {
  return {
    n: values.length,
    p50: median(values),
    p95: percentile(values, 0.95),
    min: values.length ? Math.min(...values) : Number.NaN,
    max: values.length ? Math.max(...values) : Number.NaN,
  }
}

/** `a / b`, `NaN` when either side is not a positive finite number. */
export function ratio(a: number, b: number): number {
  return Number.isFinite(a) && Number.isFinite(b) && b > 0 ? a / b : Number.NaN
}

/** Fixed-point with a precision that suits the magnitude (3 significant-ish digits). */
export function fmt(value: number, unit = ''): string {
  if (!Number.isFinite(value)) return 'n/a'
  const abs = Math.abs(value)
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3
  return `${value.toFixed(digits)}${unit === '' ? '' : ` ${unit}`}`
}

/** Milliseconds since an `performance.now()` mark. */
export function since(mark: number): number {
  return performance.now() - mark
}
