// Benchmark launcher: runs each row of bench/rows/ in its own Node 22 process (so rows cannot
// disturb each other's heap, inotify count or event loop), then prints ONE table and writes
// bench/results.json. Usage: node bench/run.mjs [row numbers...]   e.g. `node bench/run.mjs 5 6`.
// Benchmarks never fail CI: the exit code is 0 unless the launcher itself breaks.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const localNode = path.join(root, 'node_modules', '.bin', 'node')
const node = existsSync(localNode) ? localNode : process.execPath

/** Row scripts in table order, with the Node flags each needs and a hard time limit. */
const ROWS = [
  { id: '1', file: 'rows/1-hot-reload.ts', flags: [], timeoutMs: 60_000 },
  { id: '2', file: 'rows/2-unrelated-edit.ts', flags: [], timeoutMs: 45_000 },
  { id: '3', file: 'rows/3-reconcile-scale.ts', flags: [], timeoutMs: 90_000 },
  { id: '4', file: 'rows/4-agent-creation.ts', flags: [], timeoutMs: 120_000 },
  { id: '5', file: 'rows/5-watcher-footprint.ts', flags: [], timeoutMs: 60_000 },
  { id: '6', file: 'rows/6-cli.ts', flags: [], timeoutMs: 120_000 },
  { id: '7', file: 'rows/7-memory.ts', flags: ['--expose-gc'], timeoutMs: 45_000 },
  { id: '8', file: 'rows/8-bounds.ts', flags: [], timeoutMs: 120_000 },
  { id: '9', file: 'rows/9-lazy.ts', flags: ['--expose-gc'], timeoutMs: 900_000 },
  { id: '11', file: 'rows/11-launcher.ts', flags: ['--expose-gc'], timeoutMs: 240_000 },
  { id: '12', file: 'rows/12-scale-rss.ts', flags: [], timeoutMs: 600_000 },
  { id: '13', file: 'rows/13-tool-search.ts', flags: [], timeoutMs: 180_000 },
]

const wanted = process.argv.slice(2)
const selected = ROWS.filter((r) => wanted.length === 0 || wanted.includes(r.id))
const scratch = mkdtempSync(path.join(tmpdir(), 'dsh-mcp-bench-'))

function runOne(row) {
  const script = path.join(root, 'bench', row.file)
  const out = path.join(scratch, `row-${row.id}.json`)
  if (!existsSync(script))
    return Promise.resolve({ row: row.id, title: row.file, metrics: [], notes: [], error: 'row script missing' })
  return new Promise((resolve) => {
    const started = Date.now()
    const child = spawn(node, ['--no-warnings', ...row.flags, script], {
      cwd: root,
      env: { ...process.env, BENCH_OUT: out },
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    })
    let stderr = ''
    child.stderr.on('data', (d) => {
      stderr = (stderr + d).slice(-4000)
    })
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL')
      } catch {
        // The group is gone already: nothing to kill.
      }
    }, row.timeoutMs)
    child.on('exit', (code, signal) => {
      clearTimeout(timer)
      // Reap anything the row left in its process group.
      try {
        process.kill(-child.pid, 'SIGKILL')
      } catch {
        // Nothing was left in the group.
      }
      const elapsedMs = Date.now() - started
      if (existsSync(out)) return resolve(JSON.parse(readFileSync(out, 'utf8')))
      const why = signal ? `killed (${signal}) after ${elapsedMs} ms` : `exited ${code} without a result`
      resolve({ row: row.id, title: row.file, metrics: [], notes: [], error: `${why}\n${stderr.trim()}`, elapsedMs })
    })
  })
}

function table(results) {
  const header = ['row', 'metric', 'ours', 'baseline/contrast', 'ratio', 'target', 'met?']
  const lines = []
  for (const r of results) {
    const label = `${r.row} ${r.title}`
    if (r.error) lines.push([label, 'ERROR', r.error.split('\n')[0].slice(0, 60), '-', '-', '-', '?'])
    r.metrics.forEach((m, i) => {
      const met = m.met === null ? '?' : m.met ? 'yes' : 'NO'
      lines.push([i === 0 && !r.error ? label : '', m.metric, m.ours, m.baseline, m.ratio, m.target, met])
    })
  }
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => String(l[i]).length)))
  const fmtLine = (cells) =>
    cells
      .map((c, i) => String(c).padEnd(widths[i]))
      .join('  ')
      .trimEnd()
  return [fmtLine(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(fmtLine)].join('\n')
}

const started = Date.now()
const results = []
for (const row of selected) {
  process.stderr.write(`bench: row ${row.id} (${row.file}) ...\n`)
  results.push(await runOne(row))
}
rmSync(scratch, { recursive: true, force: true })

console.log(table(results))
const notes = results.flatMap((r) => r.notes.map((n) => `  [${r.row}] ${n}`))
if (notes.length > 0) console.log(`\nnotes:\n${notes.join('\n')}`)
const errors = results.filter((r) => r.error)
if (errors.length > 0) console.log(`\nerrors:\n${errors.map((r) => `  [${r.row}] ${r.error}`).join('\n')}`)
const totalMs = Date.now() - started
console.log(
  `\n${results.length} rows in ${(totalMs / 1000).toFixed(1)} s; node ${process.versions.node} launcher, rows on ${node}; ${cpus().length} cpus`,
)

const resultsFile = path.join(root, 'bench', 'results.json')
writeFileSync(
  resultsFile,
  `${JSON.stringify({ date: new Date().toISOString(), cpus: cpus().length, totalMs, rows: results }, null, 2)}\n`,
)
