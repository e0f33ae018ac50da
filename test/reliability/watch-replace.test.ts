/**
 * The watcher never goes deaf after a watched file is deleted and re-created
 * at once — what `git checkout -- file`, `git stash` and `rm f && cp x f` do.
 * On the real host with real fixture servers, for the project file, the user
 * file (`$DSH_HOME/mcp.yml`) and the trust store (`$DSH_HOME/mcp-trust.json`):
 * the replacement itself is seen, and so are the first, SECOND and THIRD
 * edits after it (in place for the config files; the real `dsh-mcp
 * untrust`/`trust` for the store). Every wait is event-driven with a
 * generous deadline. `$DSH_HOME` is a git work tree with its git dir
 * elsewhere (the dotfiles-repo layout), so git runs there for real too.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { copyFileSync, rmSync, writeFileSync } from 'node:fs'
import { after, describe, test } from 'node:test'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { reapAll } from '../support/procs.ts'
import { friendly, projectWith, type RuntimeWorld, startWorld, stdioEntry } from '../support/runtime.ts'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'
import { cli, trustAll } from '../support/trust.ts'
import { mcpToolNames, waitFor } from '../support/host.ts'
after(() => cleanupAll())

const scratch = makeTempDir('dsh-mcp-watch-replace-')
const pids = scratch.mkdir('pids')
after(() => reapAll(pids))
let seq = 0

type Op = 'git checkout' | 'git stash' | 'rm && cp'
const OPS: Op[] = ['git checkout', 'git stash', 'rm && cp']

/** git in `work` (its git dir `gitDir`, outside the tree when given), with umask 077 as a careful user has. */
function git(work: string, gitDir: string | undefined, ...args: string[]): void {
  const where = gitDir ? ['--git-dir', gitDir, '--work-tree', work] : []
  const cmd = ['git', '-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...where, ...args]
    .map((a) => `'${a.replace(/'/g, `'\\''`)}'`)
    .join(' ')
  execFileSync('sh', ['-c', `umask 077 && ${cmd}`], { cwd: work, stdio: 'pipe' })
}

/** Commit `rel` in the repo (created on first use). */
function commit(work: string, gitDir: string | undefined, rel: string): void {
  if (gitDir) git(work, gitDir, 'init', '-q')
  else git(work, undefined, 'init', '-q')
  git(work, gitDir, 'add', '--', rel)
  git(work, gitDir, 'commit', '-q', '-m', 'state', '--', rel)
}

/** The replace: back to the committed content (git), or to `copy` (rm && cp). */
function replace(op: Op, work: string, gitDir: string | undefined, rel: string, file: string, copy: string): void {
  if (op === 'git checkout') git(work, gitDir, 'checkout', '--', rel)
  else if (op === 'git stash') git(work, gitDir, 'stash', '-q')
  else {
    rmSync(file)
    copyFileSync(copy, file)
  }
}

async function untilTools(w: RuntimeWorld, agent: Agent, want: string[], message: string): Promise<void> {
  const sorted = JSON.stringify([...want].sort())
  await waitFor(() => JSON.stringify(mcpToolNames(w.host.ctx, agent)) === sorted, {
    ctx: w.host.ctx,
    events: ['tools/change'],
    timeoutMs: 60_000,
    message: `${message}: never saw tools ${sorted} (have ${JSON.stringify(mcpToolNames(w.host.ctx, agent))})`,
  })
}

const servers = (name: string, tool: string) =>
  friendly({ [name]: stdioEntry(name, { tools: [tool], pidfileDir: pids }) })

describe('config files replaced at once are still watched after', () => {
  for (const where of ['project', 'user'] as const) {
    for (const op of OPS) {
      test(`${where} file, ${op}: the replace and the 1st, 2nd and 3rd later edits are seen`, async (t) => {
        const n = ++seq
        const name = where === 'project' ? 'p' : 'u'
        const p = projectWith({})
        const w = await startWorld({ debounceMs: 20, ...(where === 'user' ? { userFile: servers(name, 't0') } : {}) })
        t.after(async () => {
          await w.dispose()
          reapAll(pids)
        })
        const work = where === 'project' ? p.path : w.home.path
        const gitDir = where === 'project' ? undefined : scratch.join(`home-git-${n}`)
        const rel = where === 'project' ? '.dsh/mcp.yml' : 'mcp.yml'
        const file = where === 'project' ? p.join('.dsh', 'mcp.yml') : w.home.join('mcp.yml')
        writeFileSync(file, servers(name, 't0'))
        commit(work, gitDir, rel)
        const agent = (await w.host.createAgent({ cwd: p.path })).agent
        const tool = (k: string) => `mcp__${name}__${k}`
        await untilTools(w, agent, [tool('t0')], 'first state')

        writeFileSync(file, servers(name, 't1'))
        await untilTools(w, agent, [tool('t1')], 'an edit before the replace')
        const copy = scratch.write(`copy-${n}.yml`, servers(name, 'tc'))
        replace(op, work, gitDir, rel, file, copy)
        await untilTools(w, agent, [tool(op === 'rm && cp' ? 'tc' : 't0')], `the ${op} itself`)

        for (const [i, k] of ['t2', 't3', 't4'].entries()) {
          writeFileSync(file, servers(name, k))
          await untilTools(w, agent, [tool(k)], `edit ${i + 1} after ${op} of the ${where} file`)
        }
        await w.mcp.whenIdle()
      })
    }
  }
})

describe('the trust store replaced at once is still watched after', () => {
  for (const op of OPS) {
    test(`trust store, ${op}: the replace and the later untrust, trust, untrust are each seen`, async (t) => {
      const n = ++seq
      const w = await startWorld({ trust: 'require', debounceMs: 20 })
      t.after(async () => {
        await w.dispose()
        reapAll(pids)
      })
      const p = projectWith({ s: stdioEntry('s', { tools: ['t'], pidfileDir: pids }) })
      const agent = (await w.host.createAgent({ cwd: p.path })).agent
      const up = ['mcp__s__t']
      await trustAll(w, p.path)
      await untilTools(w, agent, up, 'trusted')
      const gitDir = scratch.join(`store-git-${n}`)
      const store = w.home.join('mcp-trust.json')
      commit(w.home.path, gitDir, 'mcp-trust.json')
      const copy = scratch.join(`store-copy-${n}.json`)
      copyFileSync(store, copy)

      await cli(w, p.path, ['untrust'])
      await untilTools(w, agent, [], 'untrust before the replace')
      replace(op, w.home.path, gitDir, 'mcp-trust.json', store, copy)
      await untilTools(w, agent, up, `the ${op} of the store (trusted again)`)

      await cli(w, p.path, ['untrust'])
      await untilTools(w, agent, [], `untrust 1 after ${op}: the server stops`)
      await trustAll(w, p.path)
      await untilTools(w, agent, up, `trust 2 after ${op}`)
      await cli(w, p.path, ['untrust'])
      await untilTools(w, agent, [], `untrust 3 after ${op}: the server stops`)
      assert.equal(
        w.mcp
          .snapshot()
          .projects.find((x) => x.root === p.path)
          ?.servers.find((s) => s.name === 's')?.state,
        'untrusted',
      )
    })
  }
})
