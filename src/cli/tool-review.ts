/**
 * The tool-level review: what a trusted server offers now beside the tools
 * pinned when it was trusted (trust/tool-pins.ts), as `dsh-mcp trust` shows
 * it before accepting and as `list` marks it (`tools changed — review`).
 *
 * Contract: `toolReviewOf` reads the offered list the host recorded for the
 * row (trust/offered.ts, `$DSH_HOME/mcp-tool-review/`) and is undefined
 * unless the row has an entry, its trust record holds pins, the list was
 * offered under the row's current fingerprint, and something offered is
 * added or changed (a removal alone withholds nothing). Accepting records
 * `accept`: the pins of the whole offered list. `toolReviewLines` shows each
 * change — added, removed, description changed, schema changed — with the
 * new description and schema (canonical JSON) through `oneLine`
 * (config/terminal-safe.ts): control, bidi and format characters as visible
 * escapes, one line each, so a poisoned text cannot forge review lines. The
 * texts were redacted with the server's credentials by the host before they
 * were written.
 *
 * @module
 */
import { canonicalJson, rowFingerprint } from '../config/fingerprint.ts'
import type { Row } from '../config/layers.ts'
import { oneLine } from '../config/terminal-safe.ts'
import { readOffered } from '../trust/offered.ts'
import type { TrustRecord } from '../trust/state.ts'
import { diffTools, pinsOf, type ToolChange, type ToolPins } from '../trust/tool-pins.ts'

export interface ToolReview {
  changes: ToolChange[]
  /** The pins accepting records: the whole offered list. */
  accept: ToolPins
}

/** The pending tool review of `row` (see the module contract), or undefined. */
export function toolReviewOf(
  dshHome: string,
  canonicalRoot: string,
  row: Row,
  record: TrustRecord | undefined,
): ToolReview | undefined {
  if (!row.entry || !record?.tools) return undefined
  const offered = readOffered(dshHome, canonicalRoot, row.name)
  if (!offered || offered.fingerprint !== rowFingerprint(row)) return undefined
  const changes = diffTools(record.tools, offered.tools)
  if (!changes.some((c) => c.kind !== 'removed')) return undefined
  return { changes, accept: pinsOf(offered.tools) }
}

const schemaText = (schema: unknown) => oneLine(canonicalJson(schema ?? null))

/** The review section: one heading, then per tool what changed and the new text. */
export function toolReviewLines(review: ToolReview): string[] {
  const out = ['  tools changed since trusted (withheld until trusted again):']
  for (const c of review.changes) {
    const name = oneLine(c.name)
    if (c.kind === 'removed') {
      out.push(`    - removed: ${name}`)
      continue
    }
    if (c.kind === 'added') {
      out.push(`    + added: ${name}`, `        description: ${oneLine(c.description)}`)
      out.push(`        schema: ${schemaText(c.schema)}`)
      continue
    }
    if (c.description !== undefined)
      out.push(`    ~ description changed: ${name}`, `        new description: ${oneLine(c.description)}`)
    if (c.schema !== undefined) out.push(`    ~ schema changed: ${name}`, `        new schema: ${schemaText(c.schema)}`)
  }
  return out
}
