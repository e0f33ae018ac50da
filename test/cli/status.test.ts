/**
 * `dsh-mcp status` against hand-written status files (the format the
 * runtime writes): absent, fresh with a live writer, stale, a dead writer,
 * damaged, another project's file, and a symlinked checkout.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { after, describe, test } from 'node:test'
import { statusFilePath } from '../../src/status/path.ts'
import { canonicalRoot } from '../../src/trust/store.ts'
import { type Sandbox, sandbox } from '../support/sandbox.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'
import { runCli } from '../support/cli.ts'
after(() => cleanupAll())

const status = (s: Sandbox, args: string[] = [], cwd = s.project.path) =>
  runCli(['status', ...args], { cwd, dshHome: s.dshHome, home: s.home })

function writeStatus(s: Sandbox, body: unknown, root = canonicalRoot(s.project.path)): string {
  const file = statusFilePath(s.dshHome, root)
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, typeof body === 'string' ? body : JSON.stringify(body, null, 2))
  return file
}

function statusBody(s: Sandbox, opts: { pid?: number; updatedAt?: string } = {}) {
  const root = canonicalRoot(s.project.path)
  const updatedAt = opts.updatedAt ?? new Date().toISOString()
  return {
    version: 1,
    root,
    pid: opts.pid ?? process.pid,
    updatedAt,
    servers: [
      {
        name: 'github',
        effectiveName: 'github',
        layer: 'project',
        file: join(root, '.dsh/mcp.yml'),
        state: 'mounted',
        toolCount: 3,
        error: null,
        updatedAt,
      },
      {
        name: 'docs',
        effectiveName: 'docs_3f2a1b',
        layer: 'project',
        file: join(root, '.dsh/mcp.yml'),
        state: 'failed',
        toolCount: 0,
        error: 'HTTP 401 Unauthorized',
        updatedAt,
      },
      {
        name: 'stranger',
        effectiveName: null,
        layer: 'legacy',
        file: join(root, '.mcp.json'),
        state: 'untrusted',
        toolCount: 0,
        error: null,
        updatedAt,
      },
    ],
  }
}

/** A pid that certainly belongs to no process any more. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
  const pid = child.pid as number
  await new Promise((resolve) => child.once('exit', resolve))
  return pid
}

describe('status', () => {
  test('no status file: one line saying so, exit 0; --json {"projects": []}', async () => {
    const s = sandbox({})
    const r = await status(s)
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stdout, new RegExp(`^no running host has written status for ${canonicalRoot(s.project.path)}$`, 'm'))
    assert.match(r.stdout, /dsh-mcp doctor/)
    const j = await status(s, ['--json'])
    assert.equal(j.code, 0)
    assert.deepEqual(JSON.parse(j.stdout), { projects: [] })
  })

  test('fresh, live writer: --json has the documented shape, exactly', async () => {
    const s = sandbox({})
    const body = statusBody(s)
    const file = writeStatus(s, body)
    const r = await status(s, ['--json'])
    assert.equal(r.code, 0, r.stderr)
    const out = JSON.parse(r.stdout) as { projects: Record<string, unknown>[] }
    assert.equal(out.projects.length, 1)
    const p = out.projects[0] as Record<string, unknown>
    assert.deepEqual(Object.keys(p), ['root', 'file', 'pid', 'alive', 'host', 'updatedAt', 'servers', 'files'])
    assert.equal(p.root, body.root)
    assert.equal(p.file, file)
    assert.equal(p.pid, process.pid)
    assert.equal(p.alive, true)
    assert.equal(p.updatedAt, body.updatedAt)
    const servers = p.servers as Record<string, unknown>[]
    for (const x of servers)
      assert.deepEqual(Object.keys(x), [
        'name',
        'effectiveName',
        'layer',
        'file',
        'state',
        'toolCount',
        'error',
        'verdict',
        'updatedAt',
        'lifecycle',
        'toolSource',
        'lastUsedAt',
        'detail',
      ])
    assert.deepEqual(
      servers.map((x) => [x.name, x.effectiveName, x.layer, x.state, x.toolCount, x.error]),
      [
        ['github', 'github', 'project', 'mounted', 3, null],
        ['docs', 'docs_3f2a1b', 'project', 'failed', 0, 'HTTP 401 Unauthorized'],
        ['stranger', null, 'legacy', 'untrusted', 0, null],
      ],
    )
  })

  test('fresh, live writer: the table says what is mounted, how old, and that the writer runs', async () => {
    const s = sandbox({})
    writeStatus(s, statusBody(s))
    const r = await status(s)
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stdout, new RegExp(`^  updated (just now|\\d+ s ago) by pid ${process.pid} \\(running\\)$`, 'm'))
    assert.match(r.stdout, /^STATE +NAME +EFFECTIVE +LAYER +TOOLS +ERROR$/m)
    assert.match(r.stdout, /^mounted +github +github +project +3$/m)
    assert.match(r.stdout, /^failed +docs +docs_3f2a1b +project +- +HTTP 401 Unauthorized$/m)
    assert.match(r.stdout, /^untrusted +stranger +- +legacy +-$/m)
  })

  test('stale: the age is shown in minutes', async () => {
    const s = sandbox({})
    writeStatus(s, statusBody(s, { updatedAt: new Date(Date.now() - 10 * 60_000).toISOString() }))
    const r = await status(s)
    assert.match(r.stdout, /updated 10 min ago by pid/)
  })

  test('a dead writer: said plainly, alive false in JSON, still exit 0', async () => {
    const s = sandbox({})
    const pid = await deadPid()
    writeStatus(s, statusBody(s, { pid }))
    const r = await status(s)
    assert.equal(r.code, 0)
    assert.match(r.stdout, new RegExp(`by pid ${pid}, which is no longer running: nothing is mounted now`))
    assert.match(r.stdout, /it died without stopping cleanly/)
    assert.match(r.stdout, /^stopped +github +- +project +-$/m, 'a died host mounts nothing now')
    assert.match(r.stdout, /^failed +docs/m)
    const j = JSON.parse((await status(s, ['--json'])).stdout) as {
      projects: { alive: boolean; pid: number; host: string; servers: { state: string }[] }[]
    }
    assert.equal(j.projects[0]?.alive, false)
    assert.equal(j.projects[0]?.pid, pid)
    assert.equal(j.projects[0]?.host, 'died')
    assert.deepEqual(
      j.projects[0]?.servers.map((x) => x.state),
      ['stopped', 'failed', 'untrusted'],
    )
  })

  test('a host that stopped cleanly, and the files it refused: said plainly, with the reason', async () => {
    const s = sandbox({})
    const pid = await deadPid()
    const body = statusBody(s, { pid })
    const root = canonicalRoot(s.project.path)
    body.servers[0] = {
      ...body.servers[0],
      state: 'stopped',
      effectiveName: null,
      toolCount: 0,
    } as (typeof body.servers)[0]
    writeStatus(s, {
      ...body,
      host: 'stopped',
      files: [
        {
          file: join(root, '.dsh/mcp.local.yml'),
          layer: 'local',
          error: '.dsh/mcp.local.yml:2:3: bad indentation',
          keptLastGood: false,
        },
      ],
    })
    const r = await status(s)
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stdout, new RegExp(`by pid ${pid}, which has stopped: nothing is mounted now$`, 'm'))
    assert.match(r.stdout, /^stopped +github/m)
    assert.ok(
      r.stdout.includes(
        `refused ${join(root, '.dsh/mcp.local.yml')}: .dsh/mcp.local.yml:2:3: bad indentation (nothing from it is used;`,
      ),
      r.stdout,
    )
    const j = JSON.parse((await status(s, ['--json'])).stdout) as { projects: { host: string; files: unknown[] }[] }
    assert.equal(j.projects[0]?.host, 'stopped')
    assert.deepEqual(j.projects[0]?.files, [
      {
        file: join(root, '.dsh/mcp.local.yml'),
        layer: 'local',
        error: '.dsh/mcp.local.yml:2:3: bad indentation',
        keptLastGood: false,
      },
    ])
  })

  test('a damaged or foreign status file: exit 1 with one line naming the file', async () => {
    const s = sandbox({})
    const file = writeStatus(s, '{ "version": 1, "root": ')
    const r = await status(s)
    assert.equal(r.code, 1)
    assert.ok(r.stderr.startsWith(`dsh-mcp: status file ${file} is not valid JSON`), r.stderr)
    writeStatus(s, { ...statusBody(s), root: '/somewhere/else' })
    const other = await status(s, ['--json'])
    assert.equal(other.code, 1)
    assert.match(other.stderr, /belongs to another project \(\/somewhere\/else\)/)
    writeStatus(s, { ...statusBody(s), version: 2 })
    assert.match((await status(s)).stderr, /has version 2; this dsh-mcp reads version 1/)
  })

  test('hostile contents cannot break the terminal: control characters are dropped, unknown states marked', async () => {
    const s = sandbox({})
    const body = statusBody(s)
    body.servers[0] = {
      ...body.servers[0],
      state: 'exploded',
      error: 'bad\u001b[2J\u0007thing',
    } as (typeof body.servers)[0]
    writeStatus(s, body)
    const r = await status(s)
    assert.equal(r.code, 0)
    assert.ok(!r.stdout.includes('\u001b[2J') && !r.stdout.includes('\u0007'))
    assert.match(r.stdout, /^unknown +github/m)
  })

  test('a symlinked checkout and a subdirectory read the same status file', async () => {
    const s = sandbox({})
    writeStatus(s, statusBody(s))
    const links = makeTempDir('dsh-mcp-links-')
    const link = join(links.path, 'checkout')
    symlinkSync(s.project.path, link)
    const viaLink = JSON.parse((await status(s, ['--json'], link)).stdout) as { projects: { root: string }[] }
    assert.equal(viaLink.projects[0]?.root, canonicalRoot(s.project.path))
    const sub = s.project.mkdir('src/deep')
    const viaSub = JSON.parse((await status(s, ['--json'], sub)).stdout) as { projects: unknown[] }
    assert.equal(viaSub.projects.length, 1)
  })
})
