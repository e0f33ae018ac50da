/**
 * Node's compile cache never lives where another user can write
 * (bin/compile-cache.js; docs/guide/trust.md, "Start-up"). Another local user
 * (uid 65534, through setpriv) attacks the real CLI: it pre-creates Node's
 * default cache directory in a shared sticky TMPDIR and swaps in a forged
 * cache entry that claims the real bundle's source hash (the entry's code
 * writes a marker file); it pre-creates the private directory itself, plants
 * a link there, or leaves it group- or world-writable. No attacker code runs,
 * nothing is cached in a refused directory, and the CLI still works. Runs as
 * root only (it needs a second uid); otherwise skipped with the reason.
 */
import assert from 'node:assert/strict'
import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import module from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { BIN, ensureBuilt, REPO } from '../support/cli.ts'
import { asRoot, OTHER } from '../support/markers.ts'

const hasSetpriv = spawnSync('setpriv', ['--version']).status === 0
const skip = !asRoot ? 'needs root (to act as a second user, uid 65534)' : !hasSetpriv ? 'needs setpriv' : typeof module.enableCompileCache !== 'function' ? 'this Node has no compile cache' : false
const NODE = realpathSync(process.execPath)
const PROGRAM = join(REPO, 'lib', 'cli-bundle', 'program.js')

let work = ''
before(async () => {
  await ensureBuilt()
  work = realpathSync(mkdtempSync(join(tmpdir(), 'dsh-mcp-cc-')))
  chmodSync(work, 0o755)
})
after(() => {
  if (work) rmSync(work, { recursive: true, force: true })
})

function asOther(cmd: string, args: string[]): void {
  execFileSync('setpriv', [`--reuid=${OTHER}`, `--regid=${OTHER}`, '--clear-groups', cmd, ...args], { stdio: 'ignore' })
}

/** The victim's world: a private home, a project, a shared sticky TMPDIR. */
function world(name: string) {
  const w = join(work, name)
  const shared = join(w, 'shared')
  const home = join(w, 'home')
  for (const d of [shared, home, join(w, 'proj', '.git'), join(w, 'dsh')]) mkdirSync(d, { recursive: true })
  chmodSync(w, 0o755)
  chmodSync(shared, 0o1777)
  chmodSync(home, 0o700)
  return { w, shared, home, proj: join(w, 'proj'), dsh: join(w, 'dsh'), cache: join(home, '.cache', 'dsh-mcp', 'compile-cache') }
}

function run(wd: ReturnType<typeof world>, env: Record<string, string> = {}): () => void {
  const r = spawnSync(NODE, [BIN, 'list'], { cwd: wd.proj, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: wd.home, DSH_HOME: wd.dsh, TMPDIR: wd.shared, ...env }, encoding: 'utf8' })
  return () => assert.equal(r.status, 0, `dsh-mcp list failed: ${r.stderr}`)
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name))
}

/** The attacker's forge: the real source and a same-length evil one compiled in its own dirs; the evil entry gets the real source's hash. */
const FORGE = `
const fs = require('fs'), cp = require('child_process')
const [real, att, marker, node] = process.argv.slice(2)
const src = fs.readFileSync(real, 'utf8')
for (const d of ['a', 'b']) { fs.mkdirSync(att + '/' + d, { recursive: true }); fs.writeFileSync(att + '/' + d + '/package.json', '{"type":"module"}') }
fs.writeFileSync(att + '/a/program.js', src)
let evil = 'process.getBuiltinModule("fs").writeFileSync(' + JSON.stringify(marker) + ', "attacker code ran as uid " + process.getuid()); export function runCli() { return 0 }\\n'
evil += '/*' + 'x'.repeat(src.length - evil.length - 4) + '*/'
fs.writeFileSync(att + '/b/program.js', evil)
const boot = (d) => { try { cp.execFileSync(node, ['-e', 'require("module").enableCompileCache(' + JSON.stringify(att + '/cc-' + d) + '); import(' + JSON.stringify(att + '/' + d + '/program.js') + ')'], { stdio: 'ignore' }) } catch {} }
boot('a'); boot('b')
const one = (d) => { const dir = fs.readdirSync(att + '/cc-' + d)[0]; const f = fs.readdirSync(att + '/cc-' + d + '/' + dir)[0]; return [dir, fs.readFileSync(att + '/cc-' + d + '/' + dir + '/' + f)] }
const [, good] = one('a'); const [dir, bad] = one('b')
good.copy(bad, 12, 12, 16)
fs.writeFileSync(att + '/forged', bad); fs.writeFileSync(att + '/dirname', dir)
`

test('a forged entry in the shared TMPDIR cache never runs as the victim', { skip }, () => {
  const wd = world('forge')
  const att = join(wd.w, 'att')
  mkdirSync(att)
  chownSync(att, OTHER, OTHER)
  const marker = join(wd.w, 'PWNED')
  writeFileSync(join(att, 'forge.cjs'), FORGE)
  chownSync(join(att, 'forge.cjs'), OTHER, OTHER)
  asOther(NODE, [join(att, 'forge.cjs'), PROGRAM, att, marker, NODE])
  const sub = `${execFileSync('cat', [join(att, 'dirname')], { encoding: 'utf8' }).replace(/-[^-]*$/, '')}-${process.getuid?.()}`
  const shared = join(wd.shared, 'node-compile-cache')
  asOther('sh', ['-c', `mkdir -p '${shared}/${sub}' && chmod 777 '${shared}' '${shared}/${sub}'`])
  run(wd)()
  // The attacker swaps every entry it can see for the forged one, then the victim runs again.
  asOther('sh', ['-c', `cd '${shared}/${sub}' && for f in *; do [ -e "$f" ] || continue; rm -f "$f"; cp '${att}/forged' "$f"; done`])
  const ran = run(wd)
  assert.ok(!existsSync(marker), 'the attacker-forged compile cache entry ran')
  ran()
  assert.deepEqual(filesUnder(shared), [], 'the CLI wrote its compile cache into the shared TMPDIR')
  // The cache it does use: 0700, the victim's own, and in use.
  const st = lstatSync(wd.cache)
  assert.equal(st.mode & 0o777, 0o700)
  assert.equal(st.uid, process.getuid?.())
  assert.ok(filesUnder(wd.cache).length > 0, 'the private compile cache holds the compiled bundle')
})

test('a cache directory another user made, a link, or a loose mode is not used', { skip }, () => {
  const variants: { name: string; plant: (wd: ReturnType<typeof world>) => { env?: Record<string, string>; watch: string } }[] = [
    {
      name: 'XDG_CACHE_HOME in a shared dir, pre-created by another user',
      plant(wd) {
        const xdg = join(wd.shared, 'xdg')
        asOther('sh', ['-c', `mkdir -p '${xdg}/dsh-mcp/compile-cache' && chmod -R 777 '${xdg}'`])
        return { env: { XDG_CACHE_HOME: xdg }, watch: join(xdg, 'dsh-mcp', 'compile-cache') }
      },
    },
    {
      name: 'the directory is a link to one the attacker owns',
      plant(wd) {
        const theirs = join(wd.shared, 'theirs')
        asOther('sh', ['-c', `mkdir -m 777 '${theirs}'`])
        mkdirSync(join(wd.home, '.cache', 'dsh-mcp'), { recursive: true })
        symlinkSync(theirs, wd.cache)
        return { watch: theirs }
      },
    },
    {
      name: 'the directory is world-writable',
      plant(wd) {
        mkdirSync(wd.cache, { recursive: true })
        chmodSync(wd.cache, 0o777)
        return { watch: wd.cache }
      },
    },
    {
      name: 'the directory is group-writable',
      plant(wd) {
        mkdirSync(wd.cache, { recursive: true })
        chmodSync(wd.cache, 0o770)
        return { watch: wd.cache }
      },
    },
    {
      name: 'its parent is writable by others (not sticky)',
      plant(wd) {
        const xdg = join(wd.shared, 'open')
        mkdirSync(join(xdg, 'dsh-mcp', 'compile-cache'), { recursive: true, mode: 0o700 })
        chmodSync(join(xdg, 'dsh-mcp'), 0o777)
        return { env: { XDG_CACHE_HOME: xdg }, watch: join(xdg, 'dsh-mcp', 'compile-cache') }
      },
    },
  ]
  for (const v of variants) {
    const wd = world(v.name.replace(/\W+/g, '-'))
    const { env, watch } = v.plant(wd)
    run(wd, env)()
    assert.deepEqual(filesUnder(watch), [], `${v.name}: the CLI cached compiled code there`)
    assert.deepEqual(filesUnder(join(wd.shared, 'node-compile-cache')), [], `${v.name}: the CLI fell back to the shared TMPDIR`)
  }
})
