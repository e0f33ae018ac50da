/**
 * Pinned tool definitions on the host (docs/guide/trust.md "Pinned tool
 * definitions"): a trusted server's tools that differ from the ones pinned
 * at trust are withheld from its project's agents until reviewed.
 *
 * Contract:
 * - Subject: a row of a project's view that runs, needed trust and was
 *   trusted through the store or a team signature (trust-gate.ts `pinned`: never with the gate
 *   off, never a row of the user's own file alone). Its tools are what the
 *   registry holds under its mount's effective name — a live fork's or a
 *   dormant lazy server's cached ones alike — each read as the lazy cache
 *   records it (src/lazy/cache.ts `cachedTool`: texts redacted with the
 *   server's credentials), keyed by its raw name, pinned as
 *   trust/tool-pins.ts hashes it (memoized per registered definition).
 * - `withheld(root, names)` / `isWithheld(root, name)`: the names among
 *   `names` a subject of `root` offers added or changed since pinned
 *   (memory only, synchronous: visibility.ts denies them in the very
 *   `tools/change` that registered them, exec-guard.ts refuses a call to one
 *   before the tool body). A subject without pins withholds nothing. The
 *   global view (`null`) withholds nothing.
 * - `schedule()` coalesces one write pass a few milliseconds later (a
 *   settled mount, or a dormant server): a subject without pins offering
 *   tools gets them pinned in its trust record (trust/store.ts
 *   `pinFirstTools`: the first mount after trust); one withholding tools has
 *   its whole offered list written for `dsh-mcp trust` to show
 *   (trust/offered.ts) and a warning logged once per offer; one offering
 *   exactly its pins has that file removed. Nothing throws; a failed write
 *   is logged once per file.
 * - `detail(root, name)` is `tools-changed` while that subject withholds any
 *   tool (plan/states.ts), for the status files, the panel and the prompt line.
 *
 * @module
 */
import type { Context } from '@deepseek-ai/cordis'
import { cachedTool } from '../lazy/cache.ts'
import type { MountSpec, Plan } from '../plan/desired.ts'
import type { RowDetail } from '../plan/states.ts'
import { rawNameOf } from '../plan/tool-names.ts'
import { type Ownership, toolsByKey } from '../plan/visibility.ts'
import { trustCommand } from '../trust/command.ts'
import { removeOffered, writeOffered } from '../trust/offered.ts'
import { matchesPin, type OfferedTool, pinOf, pinsOf, type ToolPin, type ToolPins } from '../trust/tool-pins.ts'
import type { Log } from './log.ts'

/** What the trust gate says of a row it let run through the store. */
export interface PinSubject {
  canonical: string
  fingerprint: string
  tools: ToolPins | undefined
  /** Runs on a team signature: first pins go to the store's `signedTools` (trust/store.ts `pinSignedTools`). */
  signed?: boolean
}

export interface ToolPinDeps {
  ctx: Context
  dshHome: string
  /** The row `name` of `root`'s view, trusted through the store (trust-gate.ts), or undefined. */
  pinned(root: string, name: string): PinSubject | undefined
  plan(): Plan
  ownership(): Ownership
  /** Registered MCP tool names (visibility's cached listing). */
  registered(): readonly string[]
  /** The spec of a mount key (mounting or mounted, or a lazy server's): whose credentials its texts are redacted with. */
  spec(key: string): MountSpec | undefined
  /** Whether a key's tools are all there: mounted, or dormant (the write pass waits for it). */
  settled(key: string): boolean
  log: Log
  /** A subject started or stopped withholding (status, panel). */
  onChange(): void
}

export interface ToolPinGuard {
  withheld(root: string | null, names: readonly string[]): ReadonlySet<string>
  isWithheld(root: string | null, name: string): boolean
  detail(root: string, name: string): RowDetail | null
  schedule(): void
  dispose(): void
}

/** Coalescing delay of a write pass (a mount registers its tools in one burst). */
const PASS_DELAY_MS = 20

interface Judged {
  tool: OfferedTool
  pin: ToolPin
}

export function createToolPins(deps: ToolPinDeps): ToolPinGuard {
  const memo = new WeakMap<object, { server: string; secrets: readonly string[]; judged: Judged }>()
  /** Per canonical root and name: the signature of the offered list last written (or `''`: none). */
  const written = new Map<string, string>()
  /** Subjects withholding as of the last pass: root\0name. */
  let changed = new Set<string>()
  let timer: NodeJS.Timeout | undefined
  let disposed = false

  const judge = (name: string, server: string, spec: MountSpec): Judged | undefined => {
    const def = deps.ctx.tools.get(name)
    if (!def) return undefined
    const hit = memo.get(def)
    if (hit && hit.server === server && hit.secrets === spec.credentials) return hit.judged
    const c = cachedTool(server, def, spec.credentials)
    const tool: OfferedTool = { name: rawNameOf(name, server), description: c.description, schema: c.parameters }
    const judged = { tool, pin: pinOf(tool) }
    memo.set(def, { server, secrets: spec.credentials, judged })
    return judged
  }

  /**
   * Mount key → the pins of `root`'s subject using it. A monorepo parent's row is trusted (and pinned) under the
   * directory it belongs to — its mount's origin (config/inherit.ts `rowHome`) — not under the package's root.
   */
  const subjectsOf = (root: string): Map<string, { name: string; subject: PinSubject; home: string }> => {
    const out = new Map<string, { name: string; subject: PinSubject; home: string }>()
    for (const p of deps.plan().projects.get(root) ?? []) {
      if (p.verdict.tag !== 'runs' || !p.key) continue
      const home = deps.spec(p.key)?.origin ?? root
      const subject = deps.pinned(home, p.name)
      if (subject) out.set(p.key, { name: p.name, subject, home })
    }
    return out
  }

  const withheldIn = (root: string | null, names: readonly string[], own: Ownership): Set<string> => {
    const out = new Set<string>()
    if (root === null) return out
    const subjects = subjectsOf(root)
    if (subjects.size === 0) return out
    for (const name of names) {
      const server = own.index.ownerOf(name)
      const key = server === undefined ? undefined : own.owners.get(server)
      const s = key ? subjects.get(key) : undefined
      const pins = s?.subject.tools
      const spec = key ? deps.spec(key) : undefined
      if (!pins || !spec || server === undefined) continue
      const j = judge(name, server, spec)
      if (j && !matchesPin(pins, j.tool.name, j.pin)) out.add(name)
    }
    return out
  }

  const pass = () => {
    clearTimeout(timer)
    timer = undefined
    if (disposed) return
    const own = deps.ownership()
    const byKey = toolsByKey(deps.registered(), own)
    const keyNames = new Map<string, string>()
    for (const [server, key] of own.owners) if (key) keyNames.set(key, server)
    const now = new Set<string>()
    for (const root of deps.plan().projects.keys()) {
      for (const [key, { name, subject, home }] of subjectsOf(root)) {
        const spec = deps.spec(key)
        const server = keyNames.get(key)
        if (!spec || server === undefined || !deps.settled(key)) continue
        const offered: OfferedTool[] = []
        for (const n of byKey.get(key) ?? []) {
          const j = judge(n, server, spec)
          if (j) offered.push(j.tool)
        }
        const id = `${subject.canonical}\0${name}`
        if (!subject.tools) {
          if (offered.length > 0) firstPin(home, name, subject, pinsOf(offered))
          continue
        }
        const pins = subject.tools
        const withheld = offered.filter((t) => !matchesPin(pins, t.name, pinOf(t)))
        if (withheld.length === 0) {
          if (written.get(id) !== '') removeOffered(deps.dshHome, subject.canonical, name)
          written.set(id, '')
          continue
        }
        now.add(`${root}\0${name}`)
        offered.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
        const sig = `${subject.fingerprint}\0${JSON.stringify(offered)}`
        if (written.get(id) === sig) continue
        written.set(id, sig)
        try {
          writeOffered(deps.dshHome, {
            version: 1,
            root: subject.canonical,
            server: name,
            fingerprint: subject.fingerprint,
            offeredAt: new Date().toISOString(),
            tools: offered,
          })
        } catch (err) {
          written.delete(id)
          deps.log.once(
            `offered:${id}`,
            'warn',
            `could not record the tools "${name}" offers for review: ${String(err)}`,
          )
        }
        deps.log.warn(
          '"%s" (%s) offers %d tool(s) that changed since it was trusted (%s): withheld until reviewed; run: %s',
          name,
          root,
          withheld.length,
          withheld.map((t) => t.name).join(', '),
          trustCommand(home, name),
        )
      }
    }
    const moved = now.size !== changed.size || [...now].some((k) => !changed.has(k))
    changed = now
    if (moved) deps.onChange()
  }

  /** The record's first pins (the first mount after trust); the store watcher brings them back. */
  const pinning = new Set<string>()
  const firstPin = (root: string, name: string, subject: PinSubject, pins: ToolPins) => {
    const id = `${subject.canonical}\0${name}\0${subject.fingerprint}`
    if (pinning.has(id)) return
    pinning.add(id)
    void import('../trust/store.ts')
      .then(({ pinFirstTools, pinSignedTools }) =>
        (subject.signed ? pinSignedTools : pinFirstTools)(deps.dshHome, root, name, subject.fingerprint, pins),
      )
      .then(
        (done) => {
          if (done) deps.log.info('pinned the %d tool(s) "%s" offers (%s)', Object.keys(pins).length, name, root)
        },
        (err: unknown) => deps.log.once(`pin:${id}`, 'warn', `could not pin the tools of "${name}": ${String(err)}`),
      )
  }

  return {
    withheld: (root, names) => withheldIn(root, names, deps.ownership()),
    isWithheld: (root, name) => withheldIn(root, [name], deps.ownership()).size > 0,
    detail: (root, name) => (changed.has(`${root}\0${name}`) ? 'tools-changed' : null),
    schedule() {
      if (disposed || timer) return
      timer = setTimeout(pass, PASS_DELAY_MS)
      timer.unref?.()
    },
    dispose() {
      disposed = true
      clearTimeout(timer)
    },
  }
}
