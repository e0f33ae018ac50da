/**
 * Row 14 — locked servers (issue 25), against a real npm registry on 127.0.0.1 (verdaccio,
 * test/support/registry.ts) serving the fixture MCP server package.
 *
 * (a) First call of a server: spawn → initialize → tools/call answered, with the MCP SDK's stdio client,
 *     interleaved rounds, medians, three ways: the server's entry run directly (`node <entry>`, the
 *     baseline); through our launcher (the config the host hands the client, launch/spec.ts) for a
 *     locked and prepared server (it checks the store, then runs `node <bin>` from it); through the
 *     launcher for the same server unlocked (`npx -y <pkg>@<version>`, npx's cache warm). Ratios to the
 *     baseline; target ≤ 1.2× prepared. (Measured at the launcher, not on a whole host with a lazy
 *     server: the host's own share is row 9's first-call overhead and row 11's launcher cost.)
 * (b) `dsh-mcp lock` of a project with 10 npx servers (the bin, 3 runs, median), against the local
 *     registry.
 * Not measured here: agent start with 20 locked servers against 20 unlocked ones.
 *
 * @module
 */
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { launchedConfig } from '../../src/launch/spec.ts'
import { npmOptions } from '../../src/npm/config.ts'
import { resolveEntry } from '../../src/npm/resolve.ts'
import { prepareEntry, storeState } from '../../src/npm/store.ts'
import { writeLockFile } from '../../src/files/lock-file.ts'
import { startRegistry } from '../../test/support/registry.ts'
import { makeProject, makeTempDir } from '../../test/support/tmp.ts'
import { runRow } from '../support/report.ts'
import { fmt, median } from '../support/stats.ts'

const ROUNDS = 5
const BIN = fileURLToPath(new URL('../../bin/dsh-mcp.js', import.meta.url))
/** The built launcher the host runs (`npm run bench` builds first). */
const LAUNCHER = fileURLToPath(new URL('../../lib/launch/launcher.js', import.meta.url))

async function firstCall(command: string, args: string[], env: Record<string, string>, cwd: string): Promise<number> {
  const t0 = performance.now()
  const client = new Client({ name: 'bench', version: '0' })
  const transport = new StdioClientTransport({ command, args, env, cwd, stderr: 'ignore' })
  await client.connect(transport)
  await client.callTool({ name: 'hello', arguments: {} })
  const ms = performance.now() - t0
  await client.close()
  return ms
}

await runRow('14', 'locked servers', async (r) => {
  const reg = await startRegistry()
  r.defer(() => reg.stop())
  await reg.publishServer('1.0.0')
  const opts = npmOptions(reg.env, reg.env.HOME!)
  const dshHome = makeTempDir('dsh-mcp-bench-lock-home-').path
  const spec = 'lock-fixture-server@1.0.0'
  const entry = await resolveEntry({ runner: 'npx', spec, name: 'lock-fixture-server', range: '1.0.0', rest: [] }, opts)
  await prepareEntry(entry, opts, dshHome)
  const prepared = storeState(dshHome, entry)
  if (prepared.state !== 'prepared') throw new Error(`store: ${prepared.state}`)
  const project = makeProject({})
  writeLockFile(project.path, { lockfileVersion: 1, servers: { fix: entry } })
  const env = { ...reg.env, PATH: process.env.PATH ?? '/usr/bin:/bin' }
  const via = (locked: boolean) =>
    launchedConfig(
      { transport: 'stdio', serverName: 'fix', command: 'npx', args: ['-y', spec], env },
      {
        secrets: [],
        forward: false,
        checkouts: [project.path],
        ...(locked ? { locked: { root: project.path, name: 'fix', dshHome } } : {}),
      },
      { node: process.execPath, script: LAUNCHER },
    )
  const run = (c: ReturnType<typeof via>) =>
    firstCall(c.command, [...(c.args ?? [])], { ...(c.env as Record<string, string>) }, project.path)
  await run(via(false)) // warm npx's cache
  const direct: number[] = []
  const lockedMs: number[] = []
  const npx: number[] = []
  for (let i = 0; i < ROUNDS; i++) {
    direct.push(await firstCall(process.execPath, [prepared.bin], env, project.path))
    lockedMs.push(await run(via(true)))
    npx.push(await run(via(false)))
  }
  const base = median(direct)
  r.metric({
    metric: 'first call, locked + prepared',
    ours: fmt(median(lockedMs), 'ms'),
    baseline: fmt(base, 'ms'),
    ratio: `${(median(lockedMs) / base).toFixed(2)}×`,
    target: '≤ 1.2× node <entry>',
    met: median(lockedMs) / base <= 1.2,
    raw: { direct, locked: lockedMs },
  })
  r.metric({
    metric: 'first call, unlocked npx (warm cache)',
    ours: fmt(median(npx), 'ms'),
    baseline: fmt(base, 'ms'),
    ratio: `${(median(npx) / base).toFixed(2)}×`,
    target: '-',
    met: null,
    raw: { npx },
  })
  r.note(
    'first call = spawn → initialize → tools/call answered (MCP SDK stdio client); locked and npx go through the launcher',
  )

  // (b) lock of 10 servers through the bin.
  const servers = Object.fromEntries(
    Array.from({ length: 10 }, (_, i) => [`s${i}`, { command: 'npx', args: ['-y', 'lock-fixture-server'] }]),
  )
  const ten = makeProject({ '.dsh/mcp.yml': `${JSON.stringify({ servers }, null, 2)}\n` })
  const times: number[] = []
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now()
    const out = spawnSync(process.execPath, [BIN, 'lock', '-C', ten.path], {
      env: { ...env, DSH_HOME: path.join(dshHome, 'cli') },
      encoding: 'utf8',
    })
    if (out.status !== 0) throw new Error(`dsh-mcp lock exited ${out.status}: ${out.stderr}`)
    times.push(performance.now() - t0)
  }
  r.metric({
    metric: 'dsh-mcp lock, 10 servers',
    ours: fmt(median(times), 'ms'),
    baseline: '-',
    ratio: '-',
    target: '-',
    met: null,
    raw: { times },
  })
})
