/**
 * Agent lifecycle: which agents exist, and which directory selects each one's project.
 *
 * Contract: `add` runs once per agent — on `agent/created`, or on
 * `agent/session-start` for a host that emits only that, or at start for
 * agents that predate the plugin — and `remove` on `agent/disposed`. Both
 * run inside try/catch: a synchronous throw in an `agent/created` listener
 * would veto the agent's creation, so nothing escapes. `projectDirOf` is the
 * agent's `session.header.cwd`; for a subagent without one, its owner's
 * project (runtime owner first, then the durable `parentSession` lineage);
 * else the host's cwd.
 *
 * @module
 */
import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { Log } from './log.ts'

export interface AgentHooks {
  add(agent: Agent): void
  remove(agent: Agent): void
  log: Log
}

export function watchAgents(ctx: Context, hooks: AgentHooks): void {
  const seen = new WeakSet<Agent>()
  const onNew = (payload: { agent?: Agent } | undefined) => {
    const agent = payload?.agent
    if (!agent || seen.has(agent)) return
    seen.add(agent)
    try {
      hooks.add(agent)
    } catch (error) {
      hooks.log.warn('could not track agent %s: %s', agent.id, String(error))
    }
  }
  ctx.on('agent/created', (payload) => onNew(payload))
  ctx.on('agent/session-start', (payload) => onNew(payload))
  ctx.on('agent/disposed', (payload) => {
    const agent = payload?.agent
    if (!agent) return
    try {
      hooks.remove(agent)
    } catch (error) {
      hooks.log.warn('could not release agent %s: %s', agent.id, String(error))
    }
  })
  try {
    for (const agent of ctx.get('agents')?.list() ?? []) onNew({ agent })
  } catch {
    // a registry that cannot list: agents arrive through the events instead
  }
}

/** The agent that created `agent` through its scoped context, else its durable parent session's agent. */
export function ownerOf(ctx: Context, agent: Agent): Agent | undefined {
  const registry = ctx.get('agents')
  if (!registry) return undefined
  try {
    for (const candidate of registry.list())
      if (candidate !== agent && registry.isOwnedBy(agent.id, candidate)) return candidate
  } catch {
    // a registry that cannot list owners: the agent is its own owner
  }
  const parent = agent.session.header.parentSession
  if (!parent) return undefined
  const found = registry.get(parent)
  return found && found !== agent ? found : undefined
}

/** The project a new agent belongs to: its cwd, else its owner's project, else the host's cwd. */
export function projectOf(
  ctx: Context,
  agent: Agent,
  opts: { rootOfDir(dir: string): string; rootOfAgent(agent: Agent): string | null | undefined; hostRoot(): string },
): string {
  const cwd = agent.session.header.cwd
  if (cwd) return opts.rootOfDir(cwd)
  const owner = ownerOf(ctx, agent)
  if (owner) {
    const known = opts.rootOfAgent(owner)
    if (known) return known
    const ownerCwd = owner.session.header.cwd
    if (ownerCwd) return opts.rootOfDir(ownerCwd)
  }
  return opts.hostRoot()
}
