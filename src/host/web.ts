/**
 * The read-only host route behind the `dsh web` panel (client/panel.js).
 *
 * Contract: `serveWeb(webServer, source)` registers, on the host's own web
 * server (rc.8 `dsh-host-webserver`), two exact GET routes:
 * - {@link STATUS_PATH}`?cwd=<dir>`: the {@link WebView} as JSON — the
 *   project of `cwd` (the session's) first, then every other known project;
 * - {@link EVENTS_PATH}`?cwd=<dir>`: the same view as server-sent events,
 *   sent on connect and again whenever it changes (pushed after a burst of
 *   status writes of the runtime; nothing is polled).
 * Every request passes the fence of web-guard.ts first (a loopback or the
 * bound `Host`, no other origin: 403), and its `cwd` is matched against the
 * known project roots as a string, never resolved on disk (too long: 400).
 * One view is computed per change and shared by every request and stream;
 * streams are bounded ({@link STREAM_LIMITS}: beyond the count 503; a stream
 * that does not drain gets only the latest view once it does, and is closed
 * when it misses too many changes or has too many bytes queued).
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
import { type ServerState, STATE_TONE, signatureWords, type Tone } from '../plan/states.ts'
import type { VerdictView } from '../plan/verdict.ts'
import type { StatusBudget } from '../status/format.ts'
import { explain, explainFile, type WhyKind } from './explain.ts'
import type { FileProblem, ServerSnapshot } from './status.ts'
import { matchProject, normalCwd, trustedRequest } from './web-guard.ts'

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
  /** The row's signed approval in the state vocabulary's words (plan/states.ts `signatureWords`), or null. */
  signed: string | null
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
  /** Servers of this project that do not run (files not counted; one holding back changed tools runs). */
  notRunning: number
  /** The context budget's numbers (host/budget.ts), when it is on. */
  budget?: StatusBudget
}

export interface WebView {
  /** The project of the session's cwd (null: no cwd, or outside any project). */
  current: string | null
  projects: WebProject[]
}

/** What the runtime offers the route. */
export interface WebSource {
  /** Every known project (`current` null), in the runtime's order; called at most once per change. */
  view(): WebView
  /** Called after every status write; returns the unsubscribe. */
  onChange(listener: () => void): () => void
}

/** The slice of rc.8's `webServer` service used here. */
export interface WebServerLike {
  /** The bind host (`127.0.0.1` or `0.0.0.0`): a literal it is bound to is its own `Host`. */
  readonly host?: string
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
  budget?: StatusBudget,
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
        signed: p.verdict.signature ? signatureWords(p.verdict.signature) : null,
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
    notRunning: servers.filter((s) => s.kind !== null && s.kind !== 'tools-changed').length,
    ...(budget ? { budget } : {}),
  }
}

function onlyGet(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method === 'GET' || req.method === 'HEAD') return true
  res.writeHead(405, { allow: 'GET, HEAD' })
  res.end()
  return false
}

const HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' }

/** Bounds of the event streams (tests lower them). */
export interface StreamLimits {
  /** Open `/events` streams at once; one more is answered 503. */
  maxStreams: number
  /** Bytes one stream may have queued unsent; above it the stream is closed. */
  maxQueuedBytes: number
  /** Changes a stream that is not draining may miss before it is closed. */
  maxMissed: number
}

export const STREAM_LIMITS: StreamLimits = { maxStreams: 32, maxQueuedBytes: 1 << 20, maxMissed: 8 }

/** `view` with `current` first (the rest in the runtime's order). */
function ordered(view: WebView, current: string | null): WebView {
  const first = view.projects.filter((p) => p.root === current)
  return { current, projects: [...first, ...view.projects.filter((p) => p.root !== current)] }
}

interface Stream {
  res: ServerResponse
  current: string | null
  last: string
  waiting: boolean
  missed: number
}

export function serveWeb(web: WebServerLike, source: WebSource, limits: StreamLimits = STREAM_LIMITS): () => void {
  // One view per change, shared by every request and stream; one body per distinct `current`.
  let base: WebView | undefined
  const bodies = new Map<string | null, string>()
  const view = () => {
    base ??= source.view()
    return base
  }
  const body = (current: string | null) => {
    let b = bodies.get(current)
    if (b === undefined) {
      b = jsonTerminalSafe(JSON.stringify(ordered(view(), current)))
      bodies.set(current, b)
    }
    return b
  }
  const streams = new Set<Stream>()
  const drop = (s: Stream) => {
    streams.delete(s)
    s.res.destroy()
  }
  const push = (s: Stream) => {
    const b = body(s.current)
    if (b === s.last) return
    if (s.waiting) {
      // A stream that is not draining gets the latest view once it drains; one that stays behind is closed.
      if (++s.missed > limits.maxMissed) drop(s)
      return
    }
    if (s.res.writableLength > limits.maxQueuedBytes) return drop(s)
    s.last = b
    if (!s.res.write(`data: ${b}\n\n`)) s.waiting = true
  }
  let flush: NodeJS.Immediate | undefined
  const unsubscribe = source.onChange(() => {
    base = undefined
    bodies.clear()
    // A burst of status writes is one push per stream, after the burst.
    if (flush || streams.size === 0) return
    flush = setImmediate(() => {
      flush = undefined
      for (const s of streams) push(s)
    })
  })
  /** The request's project (null: none), or false when it was answered already (refused). */
  const admit = (req: IncomingMessage, res: ServerResponse): string | null | false => {
    if (!onlyGet(req, res)) return false
    if (!trustedRequest(req.headers, web.host)) {
      res.writeHead(403, { ...HEADERS, 'content-type': 'text/plain; charset=utf-8' })
      res.end('forbidden: this route answers its own origin on a loopback host only\n')
      return false
    }
    const raw = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('cwd')
    const cwd = raw === null ? null : normalCwd(raw)
    if (cwd === 'invalid') {
      res.writeHead(400, { ...HEADERS, 'content-type': 'text/plain; charset=utf-8' })
      res.end('bad cwd\n')
      return false
    }
    return cwd === null
      ? null
      : matchProject(
          cwd,
          view().projects.map((p) => p.root),
        )
  }
  const status = web.register({
    kind: 'exact',
    path: STATUS_PATH,
    handler: (req, res) => {
      const current = admit(req, res)
      if (current === false) return
      res.writeHead(200, { ...HEADERS, 'content-type': 'application/json; charset=utf-8' })
      res.end(req.method === 'HEAD' ? undefined : body(current))
    },
  })
  const events = web.register({
    kind: 'exact',
    path: EVENTS_PATH,
    handler: (req, res) => {
      const current = admit(req, res)
      if (current === false) return
      if (streams.size >= limits.maxStreams) {
        res.writeHead(503, { ...HEADERS, 'retry-after': '5', 'content-type': 'text/plain; charset=utf-8' })
        res.end('too many open streams\n')
        return
      }
      res.writeHead(200, { ...HEADERS, 'content-type': 'text/event-stream; charset=utf-8', connection: 'keep-alive' })
      if (req.method === 'HEAD') return void res.end()
      const s: Stream = { res, current, last: '', waiting: false, missed: 0 }
      streams.add(s)
      const close = () => streams.delete(s)
      req.on('close', close)
      res.on('close', close)
      res.on('error', close)
      res.on('drain', () => {
        s.waiting = false
        s.missed = 0
        if (streams.has(s)) push(s)
      })
      push(s)
    },
  })
  return () => {
    unsubscribe()
    if (flush) clearImmediate(flush)
    for (const s of streams) s.res.end()
    streams.clear()
    status()
    events()
  }
}
