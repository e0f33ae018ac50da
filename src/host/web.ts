/**
 * The read-only host route behind the `dsh web` panel (client/panel.js).
 *
 * Contract: `serveWeb(webServer, source)` registers, on the host's own web
 * server (rc.8 `dsh-host-webserver`), two exact GET routes:
 * - {@link STATUS_PATH}`?cwd=<dir>`: the {@link WebView} as JSON — the
 *   project of `cwd` (the session's) first, then every other known project;
 * - {@link EVENTS_PATH}`?cwd=<dir>`: the same view as server-sent events,
 *   sent on connect and again whenever it changes (pushed on every status
 *   write of the runtime; nothing is polled).
 * A view holds names, layers, states (plan/states.ts, with their tone),
 * verdicts (plan/verdict.ts `VerdictView`), lifecycles, tool counts, redacted
 * mount errors and the words and fix command of explain.ts — never an env or header
 * value, a command line, or a file's contents. Serving it reads the runtime's
 * memory only: it never loads a project, starts, wakes or retries a server.
 * Other methods answer 405. Both routes are removed with the plugin.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { jsonTerminalSafe } from '../config/terminal-safe.ts'
import type { Placement } from '../plan/desired.ts'
import { type ServerState, STATE_TONE, type Tone } from '../plan/states.ts'
import type { VerdictView } from '../plan/verdict.ts'
import { explain, explainFile, type WhyKind } from './explain.ts'
import type { FileProblem, ServerSnapshot } from './status.ts'

export const STATUS_PATH = '/api/dsh-project-mcp/status'
export const EVENTS_PATH = '/api/dsh-project-mcp/events'

export interface WebServerRow {
  name: string
  layer: string
  state: ServerState
  /** The state's tone (plan/states.ts `STATE_TONE`, the one mapping the CLI paints with too). */
  tone: Tone
  /** The row's verdict (plan/verdict.ts): tag, kind and structured fields — never a value. */
  verdict: VerdictView
  /** `eager`: started with its project; `lazy`: started by its first tool call (`dormant` until then). */
  lifecycle: 'eager' | 'lazy'
  toolCount: number
  /** The mount's last error, redacted (plan-level reasons are in `words`). */
  lastError: string | null
  kind: WhyKind | null
  words: string | null
  fix: string | null
}

export interface WebFileRow {
  file: string
  words: string
  fix: string
}

export interface WebProject {
  root: string
  agents: number
  servers: WebServerRow[]
  files: WebFileRow[]
  /** Servers of this project that do not run (files not counted). */
  notRunning: number
}

export interface WebView {
  /** The project of the session's cwd (null: no cwd, or outside any project). */
  current: string | null
  projects: WebProject[]
}

/** What the runtime offers the route. */
export interface WebSource {
  view(cwd: string | undefined): WebView
  /** Called after every status write; returns the unsubscribe. */
  onChange(listener: () => void): () => void
}

/** The slice of rc.8's `webServer` service used here. */
export interface WebServerLike {
  register(route: {
    kind: 'exact'
    path: string
    handler: (req: IncomingMessage, res: ServerResponse) => void
  }): () => void
}

/** One known project as the panel shows it: rows in plan order, each with why it does not run. */
export function webProject(
  root: string,
  agents: number,
  placements: readonly Placement[],
  rows: readonly ServerSnapshot[],
  files: readonly FileProblem[],
): WebProject {
  const servers = placements.flatMap((p, i): WebServerRow[] => {
    const s = rows[i]
    if (!s) return []
    const why = explain(root, p, s)
    return [
      {
        name: p.name,
        layer: p.layer,
        state: s.state,
        tone: STATE_TONE[s.state],
        verdict: p.verdict,
        lifecycle: s.lifecycle,
        toolCount: s.toolCount,
        lastError: p.verdict.tag === 'runs' ? s.lastError : null,
        kind: why?.kind ?? null,
        words: why?.words ?? null,
        fix: why?.fix ?? null,
      },
    ]
  })
  return {
    root,
    agents,
    servers,
    files: files.map((f) => {
      const why = explainFile(root, f)
      return { file: f.file, words: why.words, fix: why.fix }
    }),
    notRunning: servers.filter((s) => s.kind !== null).length,
  }
}

function cwdOf(req: IncomingMessage): string | undefined {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1')
  const cwd = url.searchParams.get('cwd')
  return cwd?.startsWith('/') ? cwd : undefined
}

function onlyGet(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method === 'GET' || req.method === 'HEAD') return true
  res.writeHead(405, { allow: 'GET, HEAD' })
  res.end()
  return false
}

const HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' }

export function serveWeb(web: WebServerLike, source: WebSource): () => void {
  const streams = new Map<() => void, ServerResponse>()
  const unsubscribe = source.onChange(() => {
    for (const push of streams.keys()) push()
  })
  const status = web.register({
    kind: 'exact',
    path: STATUS_PATH,
    handler: (req, res) => {
      if (!onlyGet(req, res)) return
      res.writeHead(200, { ...HEADERS, 'content-type': 'application/json; charset=utf-8' })
      res.end(req.method === 'HEAD' ? undefined : jsonTerminalSafe(JSON.stringify(source.view(cwdOf(req)))))
    },
  })
  const events = web.register({
    kind: 'exact',
    path: EVENTS_PATH,
    handler: (req, res) => {
      if (!onlyGet(req, res)) return
      const cwd = cwdOf(req)
      res.writeHead(200, { ...HEADERS, 'content-type': 'text/event-stream; charset=utf-8', connection: 'keep-alive' })
      let last = ''
      const push = () => {
        const body = jsonTerminalSafe(JSON.stringify(source.view(cwd)))
        if (body === last) return
        last = body
        res.write(`data: ${body}\n\n`)
      }
      streams.set(push, res)
      const close = () => streams.delete(push)
      req.on('close', close)
      res.on('error', close)
      push()
    },
  })
  return () => {
    unsubscribe()
    for (const res of streams.values()) res.end()
    streams.clear()
    status()
    events()
  }
}
