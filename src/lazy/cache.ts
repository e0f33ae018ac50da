/**
 * The tool-metadata cache: what each server offered the last time it ran,
 * in `$DSH_HOME/mcp-cache/<cacheKey>.json`.
 *
 * Contract: one file per cache key (config/fingerprint.ts `cacheFingerprint`:
 * a keyed hash of name, origin and the full effective launch with values,
 * under the per-user secret of secret.ts — one entry per effective server). A record holds the
 * effective server name it was recorded under and, per tool, exactly what the
 * official client registered: the public name, the raw name where the public
 * one shows it, the description, the input schema and the output schema.
 * `cachedTool(server, def, secrets)` redacts the server's secret values
 * (config/redact.ts) from the description and from every text of the schemas
 * (`description`, `title`, `default`, `examples`, `const`, `enum`, `$comment`
 * at any depth), so no secret is written to disk; names, property keys,
 * types and `required` are identifiers the wake must match and stay as the
 * server sent them (a secret in a tool or property name is not masked).
 * A hard-linked file is no cache either.
 * `writeCache` replaces the file atomically, mode 0600, in a 0700 directory
 * (files/private-dir.ts: no symbolic link is followed) and returns whether it
 * succeeded; `readCache` returns `undefined` for a missing, unreadable,
 * oversized, corrupt, foreign-version or other-key file. Neither throws;
 * `cacheReader` answers as `readCache` for many keys, listing the directory once.
 * `toolsUnder` re-derives the public names for another effective name, or
 * says the record cannot serve it (a name the official client hashed keeps
 * no raw name to re-derive from). The CLI may read this module (no host import).
 *
 * @module
 */
import { Buffer } from 'node:buffer'
import { closeSync, constants, fstatSync, openSync, readdirSync, readSync } from 'node:fs'
import path from 'node:path'
import * as z from 'zod/mini'
import { redact } from '../config/redact.ts'
import { ensureHomeDir, PRIVATE_DIRS, writePrivateFile } from '../files/private-dir.ts'
import { publicToolName, rawNameOf } from '../plan/tool-names.ts'

/** 2: keys name one effective server (name, origin, launch with values) under the per-user secret. */
export const CACHE_VERSION = 2
/** A cache file larger than this is ignored (a tool list is kilobytes). */
const MAX_CACHE_BYTES = 8 * 1024 * 1024

const JsonObject = z.record(z.string(), z.unknown())

const NonEmpty = () => z.string().check(z.minLength(1))

const CachedToolSchema = z.object({
  name: NonEmpty(),
  raw: z.optional(z.string()),
  description: z.string(),
  parameters: JsonObject,
  output: z.optional(JsonObject),
})

const CacheRecordSchema = z.object({
  version: z.literal(CACHE_VERSION),
  key: NonEmpty(),
  server: NonEmpty(),
  recordedAt: z.string(),
  tools: z.array(CachedToolSchema),
})

export type CachedTool = z.output<typeof CachedToolSchema>
export type CacheRecord = z.output<typeof CacheRecordSchema>

export function cacheDir(dshHome: string): string {
  return path.join(dshHome, PRIVATE_DIRS.cache)
}

function fileName(key: string): string {
  return `${key.replace(/[^A-Za-z0-9_-]/g, '_')}.json`
}

export function cachePath(dshHome: string, key: string): string {
  return path.join(cacheDir(dshHome), fileName(key))
}

/**
 * `readCache` for many keys of one `$DSH_HOME` (a listing): the directory is listed once, on the
 * first call, and only a key whose file is listed is opened — the same answers, without an
 * `open` (and its error) per key when most have no record.
 */
export function cacheReader(dshHome: string): (key: string) => CacheRecord | undefined {
  let names: Set<string> | undefined
  return (key) => {
    if (names === undefined) {
      try {
        names = new Set(readdirSync(cacheDir(dshHome)))
      } catch {
        // No cache directory (or none we can list): no records.
        names = new Set()
      }
    }
    return names.has(fileName(key)) ? readCache(dshHome, key) : undefined
  }
}

/** The record of `key`, or undefined when there is none usable (never an error). */
export function readCache(dshHome: string, key: string): CacheRecord | undefined {
  let fd: number | undefined
  try {
    fd = openSync(cachePath(dshHome, key), constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0))
    const st = fstatSync(fd)
    // A hard-linked record could be written through its other name (a repository file): no cache.
    if (!st.isFile() || st.nlink > 1 || st.size > MAX_CACHE_BYTES) return undefined
    const buf = Buffer.alloc(st.size)
    let off = 0
    while (off < buf.length) {
      const n = readSync(fd, buf, off, buf.length - off, off)
      if (n === 0) break
      off += n
    }
    const parsed = CacheRecordSchema.safeParse(JSON.parse(buf.subarray(0, off).toString('utf8')))
    return parsed.success && parsed.data.key === key ? parsed.data : undefined
  } catch {
    return undefined
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

/** Replace the record of `record.key`; false when it could not be written (logged by the caller). */
export function writeCache(dshHome: string, record: CacheRecord): boolean {
  try {
    ensureHomeDir(dshHome, 'cache')
    writePrivateFile(cachePath(dshHome, record.key), `${JSON.stringify(record)}\n`)
    return true
  } catch {
    return false
  }
}

/** A cached tool as recorded from a registered definition (raw name kept when the public name shows it). */
/** Schema keys whose values are text a server writes (redacted before the cache is written). */
const TEXT_KEYS = new Set(['description', 'title', 'default', 'examples', 'const', 'enum', '$comment'])

/** `schema` with every string under a text key redacted; keys and identifiers unchanged. */
function redactSchema(schema: unknown, secrets: readonly string[], text = false): unknown {
  if (typeof schema === 'string') return text ? redact(schema, secrets) : schema
  if (Array.isArray(schema)) return schema.map((v) => redactSchema(v, secrets, text))
  if (schema === null || typeof schema !== 'object') return schema
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(schema)) out[k] = redactSchema(v, secrets, text || TEXT_KEYS.has(k))
  return out
}

export function cachedTool(
  server: string,
  def: { name: string; description: string; parameters: unknown; output?: { schema?: unknown } },
  secrets: readonly string[] = [],
): CachedTool {
  const raw = rawNameOf(def.name, server)
  const parameters = (def.parameters ?? { type: 'object' }) as Record<string, unknown>
  return {
    name: def.name,
    ...(publicToolName(server, raw) === def.name ? { raw } : {}),
    description: redact(def.description, secrets),
    parameters: redactSchema(parameters, secrets) as Record<string, unknown>,
    ...(def.output?.schema && typeof def.output.schema === 'object'
      ? { output: redactSchema(def.output.schema, secrets) as Record<string, unknown> }
      : {}),
  }
}

/** The record's tools under `server` (public names re-derived), or undefined when a name cannot be re-derived. */
export function toolsUnder(record: CacheRecord, server: string): CachedTool[] | undefined {
  if (record.server === server) return record.tools
  const out: CachedTool[] = []
  for (const t of record.tools) {
    if (t.raw === undefined) return undefined
    out.push({ ...t, name: publicToolName(server, t.raw) })
  }
  return out
}
