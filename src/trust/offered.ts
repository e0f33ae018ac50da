/**
 * Offered tool lists waiting for review: what a trusted server offers now
 * that differs from its pinned tools (tool-pins.ts), written by the host and
 * read by `dsh-mcp trust` (the CLI cannot ask the host).
 *
 * Contract: one file per project and server,
 * `$DSH_HOME/mcp-tool-review/<sha256(canonical root NUL name), 32 hex>.json`,
 * written atomically, mode 0600, in a 0700 directory (files/private-dir.ts:
 * no link followed, another user's directory refused). It holds the
 * canonical root, the server name, the row fingerprint the tools were
 * offered under, when, and the *whole* offered list (raw name, description,
 * input schema) — texts as the host hands them: already redacted with the
 * server's credentials (src/lazy/cache.ts `cachedTool`), never a secret. The
 * host removes the file once what the server offers matches its pins again.
 * `readOffered` returns undefined for a missing, linked, hard-linked,
 * oversized, corrupt or foreign file, or one written for another root or
 * name; nothing here throws but the writer (`writeOffered`, whose caller logs).
 *
 * @module
 */
import { rmSync } from 'node:fs'
import path from 'node:path'
import * as z from 'zod/mini'
import { sha256 } from '../config/fingerprint.ts'
import { readPinned } from '../files/pinned-read.ts'
import { ensureHomeDir, PRIVATE_DIRS, writePrivateFile } from '../files/private-dir.ts'
import type { OfferedTool } from './tool-pins.ts'

export const OFFERED_VERSION = 1
/** An offered list larger than this is ignored (a tool list is kilobytes). */
const MAX_BYTES = 8 * 1024 * 1024

const OfferedSchema = z.object({
  version: z.literal(OFFERED_VERSION),
  root: z.string(),
  server: z.string(),
  fingerprint: z.string(),
  offeredAt: z.string(),
  tools: z.array(z.object({ name: z.string().check(z.minLength(1)), description: z.string(), schema: z.unknown() })),
})

export interface OfferedRecord {
  version: typeof OFFERED_VERSION
  root: string
  server: string
  fingerprint: string
  offeredAt: string
  tools: OfferedTool[]
}

/** Where the offered list of `name` under `canonicalRoot` lives. */
export function offeredPath(dshHome: string, canonicalRoot: string, name: string): string {
  const id = sha256(`${canonicalRoot}\0${name}`).slice(0, 32)
  return path.join(dshHome, PRIVATE_DIRS.review, `${id}.json`)
}

/** Write (replace) the record; throws when it cannot be written. */
export function writeOffered(dshHome: string, record: OfferedRecord): void {
  ensureHomeDir(dshHome, 'review')
  writePrivateFile(offeredPath(dshHome, record.root, record.server), `${JSON.stringify(record)}\n`)
}

/** Remove the record of `name` (absent: nothing to do); never throws. */
export function removeOffered(dshHome: string, canonicalRoot: string, name: string): void {
  try {
    rmSync(offeredPath(dshHome, canonicalRoot, name), { force: true })
  } catch {
    // left for the next pass: a stale file only asks for a review that shows no change
  }
}

/** The record of `name` under `canonicalRoot`, or undefined when there is none usable. */
export function readOffered(dshHome: string, canonicalRoot: string, name: string): OfferedRecord | undefined {
  const read = readPinned(offeredPath(dshHome, canonicalRoot, name), { max: MAX_BYTES })
  if (!('text' in read)) return undefined
  try {
    const parsed = OfferedSchema.safeParse(JSON.parse(read.text))
    if (!parsed.success || parsed.data.root !== canonicalRoot || parsed.data.server !== name) return undefined
    return parsed.data as OfferedRecord
  } catch {
    return undefined
  }
}
