/**
 * The layering of `src/` (AGENTS.md "Rules of the house"), read from the
 * source imports:
 * - the pure core (`src/config`, `src/plan`, `src/budget`) imports only itself, the pure lock modules and the pure
 *   trust modules (`trust/state.ts`, `trust/command.ts`), no file system, no
 *   child process, and never reads `process.platform` (it comes in as an input);
 * - `src/lock` is pure too (the core and itself; its fs and network edges are `files/lock-file.ts`, `src/npm`);
 * - `src/lazy` depends on the core and on the ports the host hands it
 *   (`src/lazy/ports.ts`), never on a `src/host` module;
 * - an edge that is not a composer (`files`, `launch`, `lazy`, `trust`,
 *   `status`, `watch`) imports another edge only through the shared file
 *   layer (`src/files`), or names the imported module in its opening doc
 *   comment with the reason (composers — `host`, `cli`, `doctor` — wire the
 *   others: that is their job);
 * - nothing but the host and the entry imports `src/host`; nothing but the
 *   CLI imports `src/cli`.
 */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'

const SRC = new URL('../../src/', import.meta.url).pathname

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? files(path.join(dir, d.name)) : d.name.endsWith('.ts') ? [path.join(dir, d.name)] : [],
  )
}

interface Module {
  rel: string
  area: string
  text: string
  comment: string
  imports: string[]
}

const modules: Module[] = files(SRC).map((file) => {
  const text = readFileSync(file, 'utf8')
  const rel = path.relative(SRC, file)
  const imports = [...text.matchAll(/^(?:import|export)[^'"]*from '([^']+)'/gm)].map((m) =>
    m[1]!.startsWith('.') ? path.relative(SRC, path.resolve(path.dirname(file), m[1]!)) : m[1]!,
  )
  return {
    rel,
    area: rel.includes('/') ? rel.split('/')[0]! : '',
    text,
    comment: /\/\*\*[\s\S]*?\*\//.exec(text)?.[0] ?? '',
    imports,
  }
})

const areaOf = (rel: string) => (rel.includes('/') ? rel.split('/')[0]! : '')
const local = (m: Module) => m.imports.filter((i) => !i.startsWith('node:') && i.endsWith('.ts'))

test('the pure core imports only the core and the pure trust modules, and reads no platform', () => {
  const bad: string[] = []
  for (const m of modules.filter((x) => ['config', 'plan', 'budget'].includes(x.area))) {
    for (const i of local(m))
      if (
        !['config', 'plan', 'budget', 'lock'].includes(areaOf(i)) &&
        i !== 'trust/state.ts' &&
        i !== 'trust/command.ts'
      )
        bad.push(`${m.rel} -> ${i}`)
    for (const i of m.imports) if (/^node:(fs|child_process|net|http)/.test(i)) bad.push(`${m.rel} -> ${i}`)
    if (/process\.platform/.test(m.text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')))
      bad.push(`${m.rel} reads process.platform`)
  }
  assert.deepEqual(bad, [])
})

test('src/lock (the lock format, targets, staleness) is pure: the core and itself, no fs, no network', () => {
  const bad: string[] = []
  for (const m of modules.filter((x) => x.area === 'lock')) {
    for (const i of local(m)) if (!['config', 'lock'].includes(areaOf(i))) bad.push(`${m.rel} -> ${i}`)
    for (const i of m.imports)
      if (/^node:(fs|child_process|net|http)|^pacote|^@npmcli/.test(i)) bad.push(`${m.rel} -> ${i}`)
  }
  assert.deepEqual(bad, [])
})

test('src/lazy depends on the core and its ports, never on src/host', () => {
  const bad = modules
    .filter((m) => m.area === 'lazy')
    .flatMap((m) =>
      local(m)
        .filter((i) => areaOf(i) === 'host')
        .map((i) => `${m.rel} -> ${i}`),
    )
  assert.deepEqual(bad, [])
})

test('an edge imports another edge only through src/files, or says why in its module comment', () => {
  const composers = new Set(['host', 'cli', 'doctor', ''])
  const neutral = new Set(['config', 'plan', 'budget', 'lock', 'files'])
  const bad: string[] = []
  for (const m of modules) {
    if (composers.has(m.area)) continue
    for (const i of local(m)) {
      const a = areaOf(i)
      if (a === m.area || neutral.has(a) || i === 'trust/state.ts' || i === 'trust/command.ts') continue
      if (!m.comment.includes(path.relative(m.area, i)) && !m.comment.includes(i)) bad.push(`${m.rel} -> ${i}`)
    }
  }
  assert.deepEqual(bad, [], 'name the imported module and the reason in the importing module comment')
})

test('only the host (and the entry) import src/host; only the CLI imports src/cli', () => {
  const bad: string[] = []
  for (const m of modules)
    for (const i of local(m)) {
      if (areaOf(i) === 'host' && m.area !== 'host' && m.rel !== 'index.ts') bad.push(`${m.rel} -> ${i}`)
      if (areaOf(i) === 'cli' && m.area !== 'cli') bad.push(`${m.rel} -> ${i}`)
    }
  assert.deepEqual(bad, [])
})

test('the plugin (index.ts and what it reaches) never imports src/doctor or src/cli: the package ships neither', () => {
  const byRel = new Map(modules.map((m) => [m.rel, m]))
  const seen = new Set<string>()
  const bad: string[] = []
  const walk = (rel: string, from: string) => {
    if (seen.has(rel)) return
    seen.add(rel)
    if (['doctor', 'cli'].includes(areaOf(rel))) bad.push(`${from} -> ${rel}`)
    const m = byRel.get(rel)
    if (m) for (const i of local(m)) walk(i, rel)
  }
  walk('index.ts', '(entry)')
  assert.ok(seen.size > 20, 'the entry reaches the plugin')
  assert.deepEqual(bad, [])
})
