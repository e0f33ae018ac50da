/**
 * The trust review as text: one screen for a handful of servers.
 *
 * Contract: `reviewText(targets, ctx)` is a summary table (name, new or
 * changed, transport, what it runs, what needs attention) followed by
 * details only for the servers that need attention — a flagged env var
 * that loads code, more than one contributing file, an unpinned package
 * runner, a change since trusted, an issue, a signature that does not count
 * or a written `cwd` that may leave the project — or for every server with
 * `verbose`. A server's details are sections
 * built in order by `REVIEW_SECTIONS` (each `{ id, lines }`; a new concern —
 * a tool diff — adds a builder there, nothing else changes): `details` (the
 * `get` block, present-text.ts), `warnings` (present-text.ts
 * `reviewWarnings`, the `!` painted yellow), `changes` (a changed server:
 * what changed field by field against the snapshot kept when it was trusted,
 * trust/snapshot.ts — code-loading env values in full, others masked), and
 * `signature` (plan/states.ts words), `tools` (tool-review.ts: the offered
 * tools beside the pinned ones). Values: only what present.ts and
 * `reviewWarnings` show (a `${secret:NAME}` reads as that reference); every
 * line is one line (`oneLine`). Colour only through `paint` (off without a
 * terminal, with NO_COLOR or --no-color).
 *
 * @module
 */
import path from 'node:path'
import type { Row } from '../config/layers.ts'
import { oneLine } from '../config/terminal-safe.ts'
import { signatureWords } from '../plan/states.ts'
import { reviewSnapshot, type Snapshot, snapshotChanges } from '../trust/snapshot.ts'
import { issuesBesideVerdict, type ServerView } from './present.ts'
import type { LockFile } from '../lock/format.ts'
import { detailLines, reviewWarnings, targetOf } from './present-text.ts'
import { type ToolReview, toolReviewLines } from './tool-review.ts'

export interface ReviewTarget {
  row: Row
  view: ServerView
  fingerprint: string
  /** The snapshot kept when it was last trusted (a changed server), if any. */
  previous?: Snapshot | undefined
  /** Tools it offers beside the ones pinned (tool-review.ts): a section of its details, recorded on accept. */
  tools?: ToolReview
  /** The project's `.dsh/mcp.lock`: a locked server's warnings show its entry instead of the runner warning. */
  lock?: LockFile
}

type Paint = (c: 'yellow' | 'red' | 'green' | 'gray' | 'bold', s: string) => string

export interface ReviewContext {
  root: string
  display: (file: string) => string
  verbose: boolean
  paint: Paint
}

export interface ReviewSection {
  id: string
  lines: string[]
}

type SectionBuilder = (t: ReviewTarget, ctx: ReviewContext) => ReviewSection | undefined

/** The issues the review shows: its own "not trusted yet" line is noise here. */
const issuesOf = (v: ServerView) => (v.verdict.tag === 'needs-trust' ? issuesBesideVerdict(v) : v.issues)

const warn = (ctx: ReviewContext, line: string) =>
  line.replace(/^(\s*)! /, (_m, sp: string) => `${sp}${ctx.paint('yellow', '!')} `)

/** The sections of one server's details, in order: add a concern's builder here. */
export const REVIEW_SECTIONS: SectionBuilder[] = [
  (t, ctx) => ({ id: 'details', lines: detailLines({ ...t.view, issues: issuesOf(t.view) }, ctx.root, ctx.display) }),
  (t, ctx) => {
    const lines = reviewWarnings(t.row, ctx.display, t.lock).map((l) => warn(ctx, l))
    return lines.length ? { id: 'warnings', lines } : undefined
  },
  (t, ctx) => {
    if (t.view.trust !== 'changed') return undefined
    if (!t.previous || !t.row.entry)
      return {
        id: 'changes',
        lines: [warn(ctx, '  ! changed since it was last trusted (what changed was not recorded then)')],
      }
    const changes = snapshotChanges(t.previous, reviewSnapshot(t.row.entry, t.row.lock))
    return {
      id: 'changes',
      lines: [
        warn(ctx, '  ! changed since it was last trusted:'),
        ...(changes.length ? changes : ['the files it is merged from']).map((c) => `      ${oneLine(c)}`),
      ],
    }
  },
  (t) => {
    const s = t.view.verdict.signature
    return s ? { id: 'signature', lines: [`  signature:   ${signatureWords(s)}`] } : undefined
  },
  (t) =>
    t.view.state === 'disabled'
      ? { id: 'disabled', lines: ['  (disabled now: trusted for when it is enabled)'] }
      : undefined,
  (t) => (t.tools ? { id: 'tools', lines: toolReviewLines(t.tools) } : undefined),
]

/** Why a server needs a closer look (empty: the summary row says enough). */
export function attentionOf(t: ReviewTarget): string[] {
  const why: string[] = []
  if (t.view.trust === 'changed') why.push('changed')
  if (t.tools) why.push('tools changed')
  // A written cwd that leaves the project (`../..`, an absolute path, a variable) is worth reading in full.
  const cwd = t.row.entry?.cwd
  if (cwd !== undefined && (cwd.includes('$') || path.isAbsolute(cwd) || cwd.split(/[\\/]/).includes('..')))
    why.push('cwd outside the project')
  const w = reviewWarnings(t.row, String, t.lock)
  if (w.some((l) => l.includes('! env '))) why.push('code-loading env')
  if (w.some((l) => l.includes('! merged from'))) why.push('merged files')
  if (w.some((l) => l.includes('fetches "'))) why.push('unpinned runner')
  if (issuesOf(t.view).length) why.push('issues')
  const s = t.view.verdict.signature
  if (s && s.state !== 'trusted') why.push(signatureWords(s))
  return why
}

/** Header and rows of the summary table. */
export function summaryTable(targets: readonly ReviewTarget[], paint: Paint): { header: string[]; rows: string[][] } {
  return {
    header: ['NAME', 'STATUS', 'TRANSPORT', 'RUNS', 'ATTENTION'],
    rows: targets.map((t) => {
      const why = attentionOf(t)
      return [
        t.view.name,
        t.view.trust === 'changed' ? paint('yellow', 'changed') : t.view.trust === 'trusted' ? 'trusted' : 'new',
        t.view.transport ?? '-',
        targetOf(t.view),
        why.length ? paint('yellow', why.join(', ')) : '-',
      ]
    }),
  }
}

/** The detail lines of the servers to detail (every one with `verbose`), each block after a blank line. */
export function detailBlocks(targets: readonly ReviewTarget[], ctx: ReviewContext): string[] {
  const out: string[] = []
  for (const t of targets) {
    if (!ctx.verbose && attentionOf(t).length === 0) continue
    out.push('')
    for (const build of REVIEW_SECTIONS) out.push(...(build(t, ctx)?.lines ?? []))
  }
  return out
}
