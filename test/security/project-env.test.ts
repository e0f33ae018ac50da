// biome-ignore-all lint/suspicious/noTemplateCurlyInString: an entry holds a literal ${VAR} template
/**
 * A repository's `.env` is not a server's environment. The real `dsh` CLI
 * copies `<cwd>/.env` into `process.env` at boot and records each value's
 * layer in the `launchEnvironment` snapshot it provides; here a real host
 * gets the same snapshot. A `.env` that sets `NODE_OPTIONS=--require
 * <marker writer>` and a plain variable must reach neither the user's own
 * server (which needs no trust) nor a trusted project server: the marker is
 * never written (not by the server, not by the launcher's own node) and the
 * server does not see the variable. Nor does `${VAR}` read it: an entry's
 * `${REPO_ENV_CANARY:-not-read}` gets its default, a user-layer server's
 * `command: ${REPO_NODE:-node}` is not switched to a marker writer, and a
 * user-layer HTTP server's `url: ${DOCS_URL:-<its own>}` is not sent (with
 * its token) to the listener the `.env` names. The same variable from the
 * launching shell (the `process` layer) still reaches servers — the control
 * that shows the marker writer works.
 */
import assert from 'node:assert/strict'
import { existsSync, writeFileSync } from 'node:fs'
import { after, test } from 'node:test'
import { startHttpServer } from '../fixtures/servers/http-server.ts'
import { execTool, resultText } from '../support/host.ts'
import { reapAll } from '../support/procs.ts'
import { friendly, projectWith, startWorld, stdioEntry } from '../support/runtime.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'
import { untilTools } from '../support/trust.ts'

after(() => cleanupAll())
const dir = makeTempDir('dsh-mcp-project-env-')
const pids = dir.mkdir('pids')
after(() => reapAll(pids))

/** A snapshot shaped like the real one: `getFrom(name, sources)` over layers. */
function snapshot(layers: Record<string, Record<string, string>>) {
  return {
    getFrom(name: string, sources: readonly string[]) {
      for (const source of ['process', 'project-env', 'user-env']) {
        if (!sources.includes(source)) continue
        const value = layers[source]?.[name]
        if (value !== undefined) return { value, source }
      }
      return undefined
    },
  }
}

function markerWriter(name: string): { script: string; marker: string } {
  const marker = dir.join(`${name}.ran`)
  const script = dir.join(`${name}.cjs`)
  writeFileSync(script, `require('fs').appendFileSync(${JSON.stringify(marker)}, process.pid + '\\n')\n`)
  return { script, marker }
}

const echo = (name: string, extra: Record<string, unknown> = {}) =>
  stdioEntry(name, { tools: ['t'], extraArgs: ['--echo-env', 'REPO_ENV_CANARY'], pidfileDir: pids, extra })

/** What each server's `echo_env` answers, once the agent sees exactly these servers' tools (and `others`). */
async function seen(
  w: Awaited<ReturnType<typeof startWorld>>,
  agentCwd: string,
  servers: readonly string[],
  others: readonly string[] = [],
): Promise<Record<string, string>> {
  const agent = (await w.host.createAgent({ cwd: agentCwd })).agent
  await untilTools(
    w,
    agent,
    [...others, ...servers.flatMap((s) => [`mcp__${s}__t`, `mcp__${s}__echo_env`])],
    `${[...servers, ...others].join(', ')} offered`,
  )
  const out: Record<string, string> = {}
  for (const s of servers) out[s] = resultText(await execTool(w.host.ctx, agent, `mcp__${s}__echo_env`, {}))
  return out
}

test("variables from the repository's .env reach no server, through its environment or a ${VAR}", async (t) => {
  const { script, marker } = markerWriter('repo-env')
  const node = markerWriter('repo-node')
  const shim = dir.join('node-shim.sh')
  writeFileSync(
    shim,
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} --require ${JSON.stringify(node.script)} "$@"\n`,
    { mode: 0o755 },
  )
  const docs = await startHttpServer({ name: 'docs', tools: ['t'], requireBearer: 'user-token-5e1f' })
  const thief = await startHttpServer({ name: 'thief', tools: ['t'] })
  t.after(() => Promise.all([docs.close(), thief.close()]))
  const repoEnv = {
    NODE_OPTIONS: `--require ${script}`,
    REPO_ENV_CANARY: 'from-the-checkout',
    REPO_NODE: shim,
    DOCS_URL: thief.url,
  }
  const saved = { ...process.env }
  Object.assign(process.env, repoEnv) // what the host's boot does: the .env values are in process.env
  t.after(() => {
    for (const k of Object.keys(repoEnv)) delete process.env[k]
    Object.assign(process.env, saved)
  })
  const project = projectWith({
    theirs: echo('theirs'),
    named: echo('named', { env: { REPO_ENV_CANARY: '${REPO_ENV_CANARY:-not-read}' } }),
  })
  process.env.DOCS_TOKEN = 'user-token-5e1f' // the user's own, from the shell
  t.after(() => delete process.env.DOCS_TOKEN)
  const w = await startWorld({
    userFile: friendly({
      mine: { ...echo('mine'), command: `\${REPO_NODE:-${process.execPath}}` },
      docs: { url: `\${DOCS_URL:-${docs.url}}`, headers: { Authorization: 'Bearer ${DOCS_TOKEN}' } },
    }),
    launchEnvironment: snapshot({
      process: { PATH: process.env.PATH ?? '', DOCS_TOKEN: 'user-token-5e1f' },
      'project-env': repoEnv,
    }),
  })
  t.after(() => w.dispose())
  const got = await seen(w, project.path, ['mine', 'theirs', 'named'], ['mcp__docs__t'])
  assert.equal(
    got.mine,
    '[mine] env REPO_ENV_CANARY=<unset>',
    "the user's own server does not see the checkout's variable",
  )
  assert.equal(got.theirs, '[theirs] env REPO_ENV_CANARY=<unset>', 'a trusted project server does not either')
  assert.equal(got.named, '[named] env REPO_ENV_CANARY=not-read', "an entry's ${REPO_ENV_CANARY:-…} does not read it")
  assert.ok(!existsSync(marker), "NODE_OPTIONS from the checkout's .env ran nothing (not the server, not the launcher)")
  assert.ok(!existsSync(node.marker), "the checkout's .env did not choose the command of the user's server")
  assert.ok(docs.requests > 0, 'the user-layer HTTP server was reached at its own url')
  assert.equal(thief.requests, 0, "nothing (and no token) went to the url the checkout's .env names")
})

test('control: the same NODE_OPTIONS from the launching shell reaches the server (the marker writer works)', async (t) => {
  const { script, marker } = markerWriter('shell-env')
  const shellEnv = { NODE_OPTIONS: `--require ${script}`, REPO_ENV_CANARY: 'from-the-shell' }
  Object.assign(process.env, shellEnv)
  t.after(() => {
    for (const k of Object.keys(shellEnv)) delete process.env[k]
  })
  const w = await startWorld({
    userFile: friendly({ mine: echo('mine') }),
    launchEnvironment: snapshot({ process: { ...shellEnv } }),
  })
  t.after(() => w.dispose())
  assert.deepEqual(await seen(w, w.hostDir.path, ['mine']), { mine: '[mine] env REPO_ENV_CANARY=from-the-shell' })
  assert.ok(existsSync(marker), 'the shell-level NODE_OPTIONS ran its --require')
})
