/**
 * One benchmark row's reporting seam. A row script calls {@link runRow}; its
 * metrics are written as JSON to `$BENCH_OUT` (set by `bench/run.mjs`) or
 * printed to stdout when the script is run on its own.
 *
 * Contract: a row never throws out of `runRow` — an error becomes the row's
 * `error` field (the launcher prints it as a `n/a` line); cleanups registered
 * with `defer` always run, last registered first. Benchmarks never fail CI:
 * the process exits 0 whatever the targets say.
 *
 * @module
 */
import { writeFileSync } from 'node:fs'
import { cleanupAll } from '../../test/support/tmp.ts'

export interface Metric {
  /** What is measured, e.g. `overhead p50`. */
  metric: string
  /** Our measurement, formatted with its unit. */
  ours: string
  /** The side-by-side contrast (baseline), formatted; `-` when there is none. */
  baseline: string
  /** ours / baseline (or another stated ratio), formatted; `-` when not meaningful. */
  ratio: string
  /** The target, in words (`≤ 20 ms`). */
  target: string
  /** Whether the target was met; `null` when it could not be judged. */
  met: boolean | null
  /** Raw numbers behind the strings (results.json). */
  raw?: Record<string, unknown>
}

export interface RowResult {
  row: string
  title: string
  metrics: Metric[]
  notes: string[]
  error?: string
  elapsedMs: number
  node: string
}

export interface RowApi {
  metric(m: Metric): void
  note(text: string): void
  /** Run `fn` when the row ends (success or not); last registered runs first. */
  defer(fn: () => unknown): void
}

/** Run one row and report it; `fn` records metrics through the api. */
export async function runRow(row: string, title: string, fn: (api: RowApi) => Promise<void>): Promise<void> {
  const started = performance.now()
  const result: RowResult = { row, title, metrics: [], notes: [], elapsedMs: 0, node: process.version }
  const cleanups: (() => unknown)[] = []
  const api: RowApi = {
    metric: (m) => void result.metrics.push(m),
    note: (text) => void result.notes.push(text),
    defer: (f) => void cleanups.push(f),
  }
  try {
    await fn(api)
  } catch (error) {
    result.error = error instanceof Error ? (error.stack ?? error.message) : String(error)
  }
  for (const cleanup of cleanups.reverse()) {
    try {
      await cleanup()
    } catch (error) {
      result.notes.push(`cleanup failed: ${String(error)}`)
    }
  }
  cleanupAll()
  result.elapsedMs = Math.round(performance.now() - started)
  const json = JSON.stringify(result, null, 2)
  if (process.env.BENCH_OUT) writeFileSync(process.env.BENCH_OUT, json)
  else process.stdout.write(`${json}\n`)
  // Host fibers, chokidar and MCP clients may keep handles open after their dispose resolves.
  process.exit(0)
}

/** `met` as the table prints it. */
export function verdict(met: boolean | null): string {
  return met === null ? '?' : met ? 'yes' : 'NO'
}
