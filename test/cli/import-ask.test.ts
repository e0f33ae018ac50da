/**
 * `dsh-mcp import` with no `--from` never silently adds servers: on a
 * terminal it lists what it found per source and scope and asks; with no
 * terminal and no `--yes` it exits 2 with a one-line hint and writes
 * nothing; `--yes` imports; `--dry-run` needs no answer (it writes nothing).
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { after, test } from 'node:test'
import { changed, makeEnv } from '../support/cli-env.ts'
import { runCli } from '../support/cli.ts'
import { cleanupAll } from '../support/tmp.ts'
after(cleanupAll)

const server = (n: string) => ({ command: 'node', args: [`${n}.js`] })

function setup() {
  const env = makeEnv({ '.mcp.json': JSON.stringify({ mcpServers: { team: server('team') } }) })
  env.home.write(
    '.cursor/mcp.json',
    JSON.stringify({ mcpServers: { cuser: server('cuser'), cother: server('cother') } }),
  )
  return env
}

test('no terminal, no --yes: exit 2, one line naming the counts per scope, nothing written', async () => {
  const env = setup()
  const snap = env.snapshot()
  const r = await env.run(['import'])
  assert.equal(r.code, 2)
  assert.equal(r.stdout, '')
  assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr)
  assert.match(
    r.stderr,
    /^dsh-mcp: import with no --from found 3 servers \(1 project-scope, 2 user-scope\) in 2 client files; name one with --from <source>, or pass --yes to import them all\n$/,
  )
  assert.deepEqual(changed(snap, env.snapshot()), [])
})

test('--dry-run needs no answer; --yes imports', async () => {
  const env = setup()
  assert.equal((await env.run(['import', '--dry-run'])).code, 0)
  const r = await env.run(['import', '--yes'])
  assert.equal(r.code, 0, r.stderr)
  assert.match(readFileSync(`${env.dshHome}/mcp.yml`, 'utf8'), /cuser/)
})

for (const [answer, imports] of [
  ['y', true],
  ['n', false],
] as const) {
  test(`on a terminal: lists per source and scope, asks; "${answer}" ${imports ? 'imports' : 'imports nothing'}`, async () => {
    const env = setup()
    const r = await runCli(['import'], {
      cwd: env.project.path,
      dshHome: env.dshHome,
      home: env.home.path,
      tty: { columns: 100 },
      stdin: `${answer}\n`,
    })
    assert.equal(r.code, imports ? 0 : 1, r.stderr)
    assert.match(r.stderr, /^ {2}\.mcp\.json → project: 1 server: team$/m)
    assert.match(r.stderr, /^ {2}~\/\.cursor\/mcp\.json → user \(starts in every project\): 2 servers: cuser, cother$/m)
    assert.match(r.stderr, /Import these 3 servers\?/)
    assert.equal(existsSync(`${env.dshHome}/mcp.yml`), imports)
    if (!imports) assert.match(r.stderr, /nothing imported/)
  })
}
