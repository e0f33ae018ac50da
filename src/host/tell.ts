/**
 * Telling the user and the agent why a project's server does not run.
 *
 * Contract: one `system-prompt/assemble` listener. After the rest of the
 * waterfall (so after the first step's wait for its project's mounts), it
 * asks `explained(agent)` for the agent's own project — never another's —
 * and, when some of its servers do not run:
 * - the returned assembly carries one section, `dsh-project-mcp:servers`,
 *   with one line per such server: the reason in words and the exact fix
 *   command, bounded to {@link PROMPT_MAX_LINES} lines and
 *   {@link PROMPT_MAX_BYTES} bytes ("and N more"); a re-entered assembly
 *   replaces the section, never duplicates it; nothing when all run;
 * - the first time in this host run for that project, one short notice goes
 *   to `notify` (how many servers and why, each with its fix, bounded to
 *   {@link NOTICE_MAX_LINES} lines, then `dsh-mcp status -C <root>`).
 * Texts come from explain.ts: names, words and commands only. Nothing throws
 * into the host: a failing lookup leaves the assembly as it was.
 *
 * @module
 */
import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { PromptAssembly } from '@deepseek-ai/dsh-system-prompt'
import { terminalSafe } from '../config/terminal-safe.ts'
import { shellWord } from '../trust/command.ts'
import { summarize, type Why } from './explain.ts'
import type { Log } from './log.ts'

export const SECTION = 'dsh-project-mcp:servers'
export const PROMPT_MAX_LINES = 20
export const PROMPT_MAX_BYTES = 2048
export const NOTICE_MAX_LINES = 6

export interface Explained {
  /** The agent's project root (null: no project, the user layer only). */
  root: string | null
  /** Active rows of the view (not disabled, not shadowed). */
  active: number
  reasons: Why[]
}

export interface TellDeps {
  explained(agent: Agent): Explained | undefined
  notify(text: string): void
  log: Pick<Log, 'debug'>
}

/** `{{` would be read as a prompt variable by the host's renderer. */
const literal = (s: string) => s.replaceAll('{{', '{ {')

const where = (root: string | null, of = 'of') => (root === null ? 'outside any project' : `${of} ${root}`)

export function promptText(e: Explained): string {
  const servers = e.reasons.filter((r) => r.kind !== 'refused-file' && r.kind !== 'tools-changed').length
  const changed = e.reasons.filter((r) => r.kind === 'tools-changed').length
  const what =
    servers > 0
      ? `${servers} MCP server(s) configured ${where(e.root, 'for')} are not running, so their tools are missing`
      : changed > 0
        ? `${changed} MCP server(s) configured ${where(e.root, 'for')} hold back tools that changed since they were trusted`
        : `A config file ${where(e.root, 'for')} was refused`
  const head = [
    '# MCP servers that are not running',
    `${what}. If the user asks for such a tool, say why it is missing and give the command below for the user to run; do not claim the tool exists.`,
  ]
  const lines = e.reasons.map(
    (r) => `- ${r.kind === 'refused-file' ? `file ${r.name}` : r.name}: ${r.words}. Fix: \`${r.fix}\``,
  )
  return literal(
    terminalSafe(
      [
        ...head,
        ...summarize(
          lines,
          PROMPT_MAX_LINES,
          PROMPT_MAX_BYTES,
          (n) => `- and ${n} more (\`dsh-mcp status${e.root === null ? '' : ` -C ${shellWord(e.root)}`}\`)`,
        ),
      ].join('\n'),
    ),
  )
}

export function noticeText(e: Explained): string {
  const servers = e.reasons.filter((r) => r.kind !== 'refused-file' && r.kind !== 'tools-changed').length
  const changed = e.reasons.filter((r) => r.kind === 'tools-changed').length
  const files = e.reasons.length - servers - changed
  const parts = [
    servers > 0
      ? `${servers} of ${e.active} MCP server${e.active === 1 ? '' : 's'} ${where(e.root)} ${servers === 1 ? 'is' : 'are'} not running`
      : '',
    changed > 0 ? `${changed} hold${changed === 1 ? 's' : ''} back changed tools until reviewed` : '',
    files > 0 ? `${files} config file${files === 1 ? ' was' : 's were'} refused` : '',
  ]
  const head = `dsh-project-mcp: ${parts.filter(Boolean).join('; ')}:`
  const lines = e.reasons.map((r) => `  ${r.name}: ${r.words}\n    → ${r.fix}`)
  const status = `dsh-mcp status${e.root === null ? '' : ` -C ${shellWord(e.root)}`}`
  return [head, ...summarize(lines, NOTICE_MAX_LINES, 4096, (n) => `  and ${n} more: ${status}`)].join('\n')
}

/**
 * The host terminal's sink: stderr (never stdout, which carries the answer),
 * unless a full-screen UI owns the terminal (stdin in raw mode), where a
 * stray line would corrupt its screen; the host log gets it either way.
 * The text passes `terminalSafe` first: a project root or server name from
 * a checkout can carry ANSI/OSC sequences (an OSC 52 clipboard write).
 */
export function terminalNotice(
  log: Pick<Log, 'info'>,
  stream: Pick<NodeJS.WriteStream, 'write'> = process.stderr,
): (text: string) => void {
  return (text) => {
    log.info('%s', text)
    const stdin = process.stdin as { isTTY?: boolean; isRaw?: boolean }
    if (stdin.isTTY && stdin.isRaw) return
    try {
      stream.write(`${terminalSafe(text)}\n`)
    } catch {
      // a closed or broken stderr must not throw into the host; the log has the text
    }
  }
}

export function tellAgents(ctx: Context, deps: TellDeps): void {
  const noticed = new Set<string>()
  ctx.on('system-prompt/assemble', async (_assembly, context, next) => {
    const assembly: PromptAssembly = await next()
    const agent = (context as { agent?: Agent }).agent
    if (!agent) return assembly
    let e: Explained | undefined
    try {
      e = deps.explained(agent)
    } catch (error) {
      deps.log.debug('agent %s: could not explain its servers: %s', agent.id, String(error))
      return assembly
    }
    const sections = assembly.sections.filter((s) => s.name !== SECTION)
    if (!e || e.reasons.length === 0)
      return sections.length === assembly.sections.length ? assembly : { ...assembly, sections }
    const key = e.root ?? ''
    if (!noticed.has(key)) {
      noticed.add(key)
      deps.notify(noticeText(e))
    }
    return { ...assembly, sections: [...sections, { name: SECTION, text: promptText(e) }] }
  })
}
