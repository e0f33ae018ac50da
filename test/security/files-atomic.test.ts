/**
 * Every atomic write never follows a link a repository (or anyone racing the
 * writer) plants at its temp-file name (src/files/atomic.ts;
 * docs/guide/reliability.md, "Files, permissions and links").
 *
 * The real CLI, started through `sh -c 'read _; exec node …'` so its pid is
 * known before it runs: a symbolic link to a file outside the repository is
 * planted at every temp name a write can predict from that pid — the old
 * writer's `<file>.<hash of module file, pid, thread, invocation>` for every
 * bundle module and the first invocations, and the common `<file>.tmp`,
 * `.<file>.tmp`, `<file>~` shapes — for each file that `add` (project and
 * local scope: `.dsh/mcp.yml`, `mcp.local.yml`, `mcp.schema.json`,
 * `.dsh/.gitignore`), `export -o` and `trust` write. Then a racer plants
 * links in a loop (at the predictable names, and in place of every temp file
 * it sees appear) while `add` runs again and again. The outside file stays
 * byte-identical, the written files are regular files with the new content
 * and their modes, and no temp file is left behind.
 */
import assert from 'node:assert/strict'
import { type ChildProcess, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  chmodSync,
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { test } from 'node:test'
import { BIN, REPO } from '../support/cli.ts'
import { makeProject, makeTempDir } from '../support/tmp.ts'
import { PATIENCE_MS, settles } from '../support/wait.ts'

const VICTIM_TEXT = 'echo original bashrc\n'

/** Every module file a bundled writer could hash into its temp names. */
function moduleFiles(): string[] {
  const dir = join(REPO, 'lib', 'cli-bundle')
  return readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .map((f) => join(dir, f))
}

/** Temp names a writer could derive from `pid` alone. */
function predictable(file: string, pid: number, modules: readonly string[]): string[] {
  const names = [
    `${file}.tmp`,
    join(dirname(file), `.${basename(file)}.tmp`),
    `${file}~`,
    `${file}.${pid}`,
    `${file}.${pid}.tmp`,
    join(dirname(file), `.${basename(file)}.${pid}.tmp`),
  ]
  for (const mod of modules) {
    for (let inv = 1; inv <= 6; inv++) {
      const h = createHash('sha1')
        .update(mod)
        .update(String(pid))
        .update('0')
        .update(String(inv))
        .digest()
        .readUInt32BE(0)
      names.push(`${file}.${h}`)
    }
  }
  return names
}

function plant(names: readonly string[], target: string): void {
  for (const n of names) {
    try {
      symlinkSync(target, n)
    } catch {}
  }
}

interface World {
  root: string
  dsh: string
  home: string
  victim: string
}

function world(): World {
  const home = makeTempDir('dsh-mcp-atomic-home-')
  const dsh = home.mkdir('.dsh')
  chmodSync(dsh, 0o700)
  const victim = home.write('.bashrc', VICTIM_TEXT)
  const p = makeProject({ '.dsh/mcp.yml': 'servers:\n  docs:\n    url: https://docs.example.com/mcp\n' })
  return { root: p.path, dsh, home: home.path, victim }
}

/** Start `dsh-mcp args` held before exec: its pid is known; `go()` lets it run; `done` is its exit. */
function held(
  w: World,
  args: string[],
): { pid: number; go(): void; done: Promise<{ code: number | null; out: string }> } {
  const child: ChildProcess = spawn('sh', ['-c', 'read _ && exec "$0" "$@"', process.execPath, BIN, ...args], {
    cwd: w.root,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: w.home, DSH_HOME: w.dsh },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout!.on('data', (d) => (out += d))
  child.stderr!.on('data', (d) => (out += d))
  const done = new Promise<{ code: number | null; out: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, out })),
  )
  return { pid: child.pid!, go: () => child.stdin!.end('\n'), done }
}

function assertClean(w: World, files: readonly string[]): void {
  assert.equal(
    readFileSync(w.victim, 'utf8'),
    VICTIM_TEXT,
    'the file outside the repository was written through a planted link',
  )
  for (const f of files) {
    const st = lstatSync(f)
    assert.ok(st.isFile(), `${f} is not a regular file`)
  }
  for (const d of new Set(files.map(dirname))) {
    const left = readdirSync(d).filter((n) => n.endsWith('.tmp') && !lstatSync(join(d, n)).isSymbolicLink())
    assert.deepEqual(left, [], `temp files left in ${d}`)
  }
}

const CASES: { name: string; args: string[]; files: (w: World) => string[]; check?: (w: World) => void }[] = [
  {
    name: 'add (project scope)',
    args: ['add', 'mine', 'node', 'server.js'],
    files: (w) => [join(w.root, '.dsh', 'mcp.yml'), join(w.root, '.dsh', 'mcp.schema.json')],
    check: (w) => assert.match(readFileSync(join(w.root, '.dsh', 'mcp.yml'), 'utf8'), /mine:/),
  },
  {
    name: 'add --scope local',
    args: ['add', '--scope', 'local', 'mine', 'node', 'server.js', '-e', 'API_TOKEN=sekrit-value-1'],
    files: (w) => [
      join(w.root, '.dsh', 'mcp.local.yml'),
      join(w.root, '.dsh', '.gitignore'),
      join(w.root, '.dsh', 'mcp.schema.json'),
    ],
    check: (w) => assert.equal(lstatSync(join(w.root, '.dsh', 'mcp.local.yml')).mode & 0o777, 0o600),
  },
  {
    name: 'export -o',
    args: ['export', '-o', 'out.json'],
    files: (w) => [join(w.root, 'out.json')],
    check: (w) => assert.equal(lstatSync(join(w.root, 'out.json')).mode & 0o777, 0o600),
  },
  {
    name: 'trust',
    args: ['trust', 'docs', '--yes'],
    files: (w) => [join(w.dsh, 'mcp-trust.json')],
  },
]

for (const c of CASES) {
  test(`${c.name}: links planted at every predictable temp name are never written through`, async () => {
    const w = world()
    const modules = moduleFiles()
    const run = held(w, c.args)
    for (const f of c.files(w)) plant(predictable(f, run.pid, modules), w.victim)
    run.go()
    const { code, out } = await settles(run.done, `dsh-mcp ${c.args.join(' ')} did not exit`)
    assertClean(w, c.files(w))
    assert.equal(code, 0, out)
    c.check?.(w)
  })
}

/** A racer in another process: plants links at the predictable names and over every temp file it sees, until `stop` exists. */
const RACER = `
const fs = require('fs'), path = require('path')
const [dir, target, stop, namesFile] = process.argv.slice(2)
const names = JSON.parse(fs.readFileSync(namesFile, 'utf8'))
let swaps = 0
while (!fs.existsSync(stop)) {
  for (const n of names) { try { fs.symlinkSync(target, n) } catch {} }
  let entries = []
  try { entries = fs.readdirSync(dir) } catch {}
  for (const e of entries) {
    if (!/\\.tmp$|^mcp\\.yml\\.\\d+$|^mcp\\.schema\\.json\\.\\d+$/.test(e)) continue
    const p = path.join(dir, e)
    try { if (fs.lstatSync(p).isSymbolicLink()) continue; fs.unlinkSync(p); fs.symlinkSync(target, p); swaps++ } catch {}
  }
}
fs.writeFileSync(stop, String(swaps))
`

test('a racer planting links in a loop while add runs never gets a write through them', async () => {
  const w = world()
  const dshDir = join(w.root, '.dsh')
  const stop = join(w.home, 'stop')
  const racerFile = join(w.home, 'racer.cjs')
  writeFileSync(racerFile, RACER)
  const modules = moduleFiles()
  for (let i = 0; i < 6; i++) {
    const run = held(w, ['add', `r${i}`, 'node', 'server.js'])
    const names = [join(dshDir, 'mcp.yml'), join(dshDir, 'mcp.schema.json')].flatMap((f) =>
      predictable(f, run.pid, modules),
    )
    const namesFile = join(w.home, `names-${i}.json`)
    writeFileSync(namesFile, JSON.stringify(names))
    const racer = spawn(process.execPath, [racerFile, dshDir, w.victim, stop, namesFile], { stdio: 'ignore' })
    const racerDone = new Promise((resolve) => racer.on('close', resolve))
    run.go()
    const { out } = await settles(run.done, 'dsh-mcp add did not exit', PATIENCE_MS)
    writeFileSync(stop, '')
    await settles(racerDone, 'the racer did not stop')
    assert.equal(readFileSync(w.victim, 'utf8'), VICTIM_TEXT, `add r${i} wrote through a raced link: ${out}`)
    // Between runs: clear the racer's leftovers so the next run starts from a plain checkout.
    for (const e of readdirSync(dshDir)) {
      const p = join(dshDir, e)
      if (lstatSync(p).isSymbolicLink()) unlinkSync(p)
    }
    unlinkSync(stop)
    if (!existsSync(join(dshDir, 'mcp.yml'))) writeFileSync(join(dshDir, 'mcp.yml'), 'servers: {}\n')
  }
})
