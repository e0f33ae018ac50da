// biome-ignore-all lint/suspicious/noTemplateCurlyInString: entries hold literal ${VAR} templates
/**
 * The child's PATH never leads into the checkout (red team, third round). A server whose file lies outside
 * the checkout but starts with `#!/usr/bin/env node` looked `node` up in the server's unchanged PATH, so an
 * absolute entry into the checkout (`$PWD/node_modules/.bin`, direnv), a relative one (`./node_modules/.bin`)
 * or `.` ran the repository's `node`; and npm's runners put every `node_modules/.bin` from the cwd up to `/`
 * ahead of PATH whatever `--prefix` says, so a trusted pinned `npx -y pkg@1.2.3` ran a committed
 * `node_modules/.bin/node`. Now relative/empty entries and entries inside a checkout are removed from the
 * child's PATH, and an npm runner is refused when a `node_modules/.bin` above its cwd shadows a system
 * command. Markers prove the planted `node` never ran — on a real host and through `doctor`.
 */
import assert from 'node:assert/strict'
import { chmodSync, existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { after, test } from 'node:test'
import { serverLogFile } from '../../src/launch/spec.ts'
import { runCli } from '../support/cli.ts'
import { markerRig } from '../support/markers.ts'
import { friendly, projectWith, type RuntimeWorld, startWorld } from '../support/runtime.ts'
import { makeTempDir } from '../support/tmp.ts'
import { waitFor } from '../support/wait.ts'

const rig = markerRig('runner-path')
const worlds: RuntimeWorld[] = []
after(async () => {
  for (const w of worlds) await w.dispose()
})

const plantedNode = (marker: string) => `#!/bin/sh\necho ran >> '${marker}'\nexit 3\n`

/** A server file outside every checkout whose interpreter is looked up in PATH. */
function shebangServer(): string {
  const dir = makeTempDir('dsh-mcp-outside-')
  const file = dir.write('srv', '#!/usr/bin/env node\nsetTimeout(() => {}, 60_000)\n')
  chmodSync(file, 0o755)
  return file
}

const VARIANTS = [
  { name: 'absolute', file: 'node_modules/.bin/node', entry: (root: string) => `${root}/node_modules/.bin` },
  { name: 'relative', file: 'node_modules/.bin/node', entry: () => './node_modules/.bin' },
  { name: 'dot', file: 'node', entry: () => '.' },
  { name: 'empty', file: 'node', entry: () => '' },
]

test('host: a #!/usr/bin/env interpreter never resolves into the checkout, whatever the PATH entry', async () => {
  const w = await startWorld({ trust: 'all', debounceMs: 30, mountTimeoutMs: 5_000 })
  worlds.push(w)
  const srv = shebangServer()
  for (const v of VARIANTS) {
    const marker = rig.marker(v.name)
    const p = projectWith({}, { [v.file]: plantedNode(marker) })
    chmodSync(p.join(v.file), 0o755)
    p.write('.dsh/mcp.yml', friendly({ s: { command: srv, env: { PATH: `${v.entry(p.path)}:/usr/bin:/bin` } } }))
    await w.host.createAgent({ cwd: p.path })
    await w.mcp.whenIdle()
    assert.equal(existsSync(marker), false, `${v.name}: the checkout's node ran`)
  }
})

test('host: npx is refused while a node_modules/.bin above its cwd shadows a system command; the log says which', async () => {
  const w = await startWorld({ trust: 'all', debounceMs: 30, mountTimeoutMs: 60_000 })
  worlds.push(w)
  const marker = rig.marker('npm-run-script')
  const p = projectWith({}, { 'node_modules/.bin/node': plantedNode(marker) })
  chmodSync(p.join('node_modules/.bin/node'), 0o755)
  p.write('.dsh/mcp.yml', friendly({ s: { command: 'npx', args: ['-y', 'some-server@1.2.3'] } }))
  await w.host.createAgent({ cwd: p.path })
  await w.mcp.whenIdle()
  const log = serverLogFile(w.home.path, p.path, 's')
  await waitFor(
    () => existsSync(log) && /npm puts .*node_modules\/\.bin ahead of PATH/.test(readFileSync(log, 'utf8')),
    {
      message: `the log never said why: ${existsSync(log) ? readFileSync(log, 'utf8') : 'no log'}`,
    },
  )
  assert.equal(existsSync(marker), false, "npx ran the checkout's node")
})

test('doctor: the probe cleans PATH the same way (a user-layer server included)', async () => {
  const marker = rig.marker('doctor')
  const srv = shebangServer()
  const p = projectWith({}, { 'node_modules/.bin/node': plantedNode(marker) })
  chmodSync(p.join('node_modules/.bin/node'), 0o755)
  const home = makeTempDir('dsh-mcp-home-')
  home.write(
    'dsh/mcp.yml',
    friendly({
      mine: { command: srv, env: { PATH: `${p.path}/node_modules/.bin:./node_modules/.bin:/usr/bin:/bin` } },
    }),
  )
  const r = await runCli(['doctor', '--json', '--timeout', '3000', '-C', p.path], {
    cwd: p.path,
    dshHome: path.join(home.path, 'dsh'),
    home: home.path,
  })
  assert.ok(r.stdout.includes('"mine"'), r.stdout + r.stderr)
  assert.equal(existsSync(marker), false, "doctor's probe ran the checkout's node")
})
