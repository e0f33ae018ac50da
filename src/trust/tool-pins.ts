/**
 * Pinned tool definitions (docs/guide/trust.md "Pinned tool definitions"):
 * what a trusted server's tools looked like when the user accepted them, and
 * how what it offers now differs.
 *
 * Contract: pure. A tool is pinned by its raw name (the server's own name,
 * plan/tool-names.ts `rawNameOf`) with two SHA-256 hashes: of its description
 * and of its input schema as canonical JSON (config/fingerprint.ts: key order
 * never matters). The texts hashed are the *redacted* ones (the server's
 * credentials masked, as the lazy cache writes them), so a live definition
 * and a cached one of the same tool hash alike. The tool list's order never
 * matters (pins are keyed by name): a `tools/list_changed` that only
 * reorders changes nothing. `diffTools` names, sorted by name, every tool
 * `added` (offered, not pinned), `removed` (pinned, not offered), and
 * `changed` (description and/or schema differ); `withheldOf` is the set of
 * offered names a client must not offer: the added and the changed ones (a
 * removed tool simply goes). `sanitizePins` reads pins from an untrusted
 * store value: anything malformed reads as no pins at all (the next mount
 * pins again, as for a record written before pins existed).
 *
 * @module
 */
import { canonicalJson, sha256 } from '../config/fingerprint.ts'
import { isRecord } from '../config/guards.ts'

/** One tool's hashes. */
export interface ToolPin {
  description: string
  schema: string
}

/** Raw tool name → its pin (a prototype-less record: a tool may be called `__proto__`). */
export type ToolPins = Record<string, ToolPin>

/** One tool as a server offers it (texts redacted). */
export interface OfferedTool {
  name: string
  description: string
  schema: unknown
}

export type ToolChange =
  | { kind: 'added'; name: string; description: string; schema: unknown }
  | { kind: 'removed'; name: string }
  | { kind: 'changed'; name: string; description?: string; schema?: unknown }

/** The pin of one offered tool. */
export function pinOf(tool: Pick<OfferedTool, 'description' | 'schema'>): ToolPin {
  return { description: sha256(tool.description), schema: sha256(canonicalJson(tool.schema ?? null)) }
}

/** The pins of a whole offered list (a later duplicate name wins: the registry holds one tool per name). */
export function pinsOf(tools: readonly OfferedTool[]): ToolPins {
  const out = Object.create(null) as ToolPins
  for (const t of tools) out[t.name] = pinOf(t)
  return out
}

function samePin(a: ToolPin | undefined, b: ToolPin): boolean {
  return a !== undefined && a.description === b.description && a.schema === b.schema
}

/** Whether `tool` is offered exactly as pinned. */
export function matchesPin(pins: ToolPins, name: string, pin: ToolPin): boolean {
  return samePin(Object.hasOwn(pins, name) ? pins[name] : undefined, pin)
}

/** Whether two pin sets (or their absence) are the same. */
export function samePins(a: ToolPins | undefined, b: ToolPins | undefined): boolean {
  if (!a || !b) return a === b
  const keys = Object.keys(a)
  return keys.length === Object.keys(b).length && keys.every((k) => matchesPin(b, k, a[k]!))
}

/** Every difference between the pins and what is offered now, sorted by name. */
export function diffTools(pins: ToolPins, offered: readonly OfferedTool[]): ToolChange[] {
  const out: ToolChange[] = []
  const seen = new Set<string>()
  for (const t of offered) {
    if (seen.has(t.name)) continue
    seen.add(t.name)
    const pinned = Object.hasOwn(pins, t.name) ? pins[t.name] : undefined
    if (!pinned) {
      out.push({ kind: 'added', name: t.name, description: t.description, schema: t.schema })
      continue
    }
    const now = pinOf(t)
    if (samePin(pinned, now)) continue
    out.push({
      kind: 'changed',
      name: t.name,
      ...(pinned.description !== now.description ? { description: t.description } : {}),
      ...(pinned.schema !== now.schema ? { schema: t.schema } : {}),
    })
  }
  for (const name of Object.keys(pins)) if (!seen.has(name)) out.push({ kind: 'removed', name })
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

/** The offered names that must not be offered: added or changed since pinned. */
export function withheldOf(pins: ToolPins, offered: readonly OfferedTool[]): Set<string> {
  const out = new Set<string>()
  for (const c of diffTools(pins, offered)) if (c.kind !== 'removed') out.add(c.name)
  return out
}

const HASH = /^[0-9a-f]{64}$/

/** Pins from an untrusted value, or undefined when it is absent or not well-formed. */
export function sanitizePins(value: unknown): ToolPins | undefined {
  if (!isRecord(value)) return undefined
  const out = Object.create(null) as ToolPins
  for (const [name, pin] of Object.entries(value)) {
    if (name === '' || !isRecord(pin)) return undefined
    const { description, schema } = pin
    if (typeof description !== 'string' || typeof schema !== 'string') return undefined
    if (!HASH.test(description) || !HASH.test(schema)) return undefined
    out[name] = { description, schema }
  }
  return out
}
