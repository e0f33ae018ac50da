/**
 * No instant of foreign visibility: 50 agents created across 5 projects while
 * servers mount and unmount; an observer checks every agent's view on every
 * `tools/change` (and on every `agent/created`) and records any foreign tool.
 */
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { after, test } from 'node:test'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { mcpToolNames, waitFor } from '../support/host.ts'
import { countLive, reapAll } from '../support/procs.ts'
import { friendly, projectWith, startWorld, stdioEntry } from '../support/runtime.ts'
import { cleanupAll, type TempDir } from '../support/tmp.ts'

after(() => cleanupAll())

test('50 agents across 5 projects never observe a foreign tool while servers mount and unmount', async (t) => {
  const w = await startWorld({
    debounceMs: 10,
    userFile: friendly({ shared: stdioEntry('shared', { tools: ['gx'] }) }),
  })
  t.after(async () => {
    await w.dispose()
    reapAll(w.pids)
  })
  const servers = (i: number, extra: boolean) => ({
    s: stdioEntry('s', { tools: [`p${i}x1`, `p${i}x2`], pidfileDir: w.pids }),
    ...(extra ? { [`more${i}`]: stdioEntry(`more${i}`, { tools: [`p${i}m`], pidfileDir: w.pids }) } : {}),
  })
  const projects: TempDir[] = []
  for (let i = 0; i < 5; i++) projects.push(projectWith(servers(i, false)))

  const projectOf = new Map<Agent, number>()
  const violations: string[] = []
  let checks = 0
  const check = (when: string) => {
    for (const [agent, i] of projectOf) {
      for (const name of mcpToolNames(w.host.ctx, agent)) {
        checks++
        if (!new RegExp(`__(p${i}[xm]\\d*|gx)$`).test(name)) violations.push(`${when}: agent of P${i} saw ${name}`)
      }
    }
  }
  w.host.ctx.on('tools/change', () => check('tools/change'))
  w.host.ctx.on('agent/created', () => check('agent/created'))

  const handles: { dispose(): unknown }[] = []
  const spawn = async (n: number) => {
    const i = n % 5
    const h = await w.host.createAgent({ cwd: projects[i]!.path })
    projectOf.set(h.agent, i)
    handles.push(h)
  }
  // Waves of agents interleaved with edits that mount and unmount servers.
  await Promise.all(Array.from({ length: 20 }, (_, n) => spawn(n)))
  writeFileSync(projects[1]!.join('.dsh', 'mcp.yml'), friendly(servers(1, true)))
  writeFileSync(projects[3]!.join('.dsh', 'mcp.yml'), friendly(servers(3, true)))
  await Promise.all(Array.from({ length: 15 }, (_, n) => spawn(20 + n)))
  await waitFor(() => mcpToolNames(w.host.ctx).some((n) => n.endsWith('__p3m')), {
    ctx: w.host.ctx,
    events: ['tools/change'],
  })
  writeFileSync(projects[1]!.join('.dsh', 'mcp.yml'), friendly({}))
  writeFileSync(projects[2]!.join('.dsh', 'mcp.yml'), friendly(servers(2, true)))
  await Promise.all(Array.from({ length: 15 }, (_, n) => spawn(35 + n)))
  await waitFor(() => mcpToolNames(w.host.ctx).some((n) => n.endsWith('__p2m')), {
    ctx: w.host.ctx,
    events: ['tools/change'],
  })
  await waitFor(() => !mcpToolNames(w.host.ctx).some((n) => /__p1/.test(n)), {
    ctx: w.host.ctx,
    events: ['tools/change'],
  })
  await w.mcp.whenIdle()
  check('settled')

  assert.equal(projectOf.size, 50)
  assert.deepEqual(violations, [])
  assert.ok(checks > 1000, `the observer really looked (${checks} checks)`)
  // And every agent does see its own project's tools in the end.
  for (const [agent, i] of projectOf) {
    const own = mcpToolNames(w.host.ctx, agent).filter((n) => new RegExp(`__p${i}`).test(n))
    assert.equal(own.length, i === 1 ? 0 : i === 2 || i === 3 ? 3 : 2, `agent of P${i}: ${own.join(',')}`)
  }
  await w.stop()
  assert.equal(countLive(w.pids), 0)
})
