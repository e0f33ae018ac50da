/**
 * The trust gate's pure decisions: is this row's fingerprint trusted for
 * this project root, and does its layer need trust at all.
 *
 * Contract: `trustStateOf` is `trusted` only when the store holds a record
 * for exactly this canonical root, name and fingerprint; `changed` when a
 * record exists with another fingerprint (the config was edited since it
 * was trusted — the Cursor "MCPoison" lesson); `untrusted` otherwise. Only
 * a row whose every field comes from the user's own file needs no trust
 * (`needsTrust`: a user row with a repository override needs it). The gate is off with
 * env `DSH_MCP_TRUST_ALL=1` (or `true`). A record may carry the server's
 * pinned tools (tool-pins.ts); malformed pins read as none.
 *
 * @module
 */
import { rowFingerprint } from '../config/fingerprint.ts'
import { type Row, repositoryContribution } from '../config/layers.ts'
import { isRecord } from '../config/guards.ts'
import { sanitizePins, type ToolPins } from './tool-pins.ts'

export interface TrustRecord {
  fingerprint: string
  trustedAt: string
  /** What the server looked like when trusted (trust/snapshot.ts): the review of a changed server diffs it. */
  fields?: Record<string, string>
  /**
   * The tools the user accepted (tool-pins.ts); absent in a record written before pins existed or before the
   * server's first mount since it was trusted: the host pins what it offers at that mount.
   */
  tools?: ToolPins
}

export interface TrustStore {
  version: 1
  /** Per canonical root: personal records, and `revoked` — names whose team signatures this user withdrew (`untrust`), with when. */
  projects: Record<
    string,
    {
      servers: Record<string, TrustRecord>
      revoked?: Record<string, string>
      /** Tools pinned for rows that run on a team signature, by name, under the signed fingerprint (never in the repository). */
      signedTools?: Record<string, { fingerprint: string; tools: ToolPins }>
    }
  >
}

/** The tools pinned for `name`, run on a team signature of `fingerprint` (undefined: none yet, or another version). */
export function signedPinsOf(store: TrustStore, canonicalRoot: string, name: string, fingerprint: string) {
  const p = Object.hasOwn(store.projects, canonicalRoot) ? store.projects[canonicalRoot] : undefined
  const r = p?.signedTools && Object.hasOwn(p.signedTools, name) ? p.signedTools[name] : undefined
  return r && r.fingerprint === fingerprint ? r.tools : undefined
}

/**
 * What a signed approval (`.dsh/mcp.trust`, trust/signed.ts) says for a row, as the edge found it: `trusted`
 * (a valid signature of the row's current fingerprint by a signer the user lists: `signer` is the user's own
 * label), or why it does not count — `unknown-signer` (no listed key; a removed signer reads so too),
 * `stale` (signed for another version of the row), `bad` (the signature does not verify for this project,
 * server and fingerprint), `revoked` (the user ran `dsh-mcp untrust` for it), `no-verifier` (`ssh-keygen`
 * not found: signatures are ignored), `file-refused` (the file is a link, unreadable or not ours). An absent
 * answer: no signature for the row.
 */
export type SignatureState = 'trusted' | 'unknown-signer' | 'stale' | 'bad' | 'revoked' | 'no-verifier' | 'file-refused'

export interface SignatureAnswer {
  state: SignatureState
  /** `trusted`: the label the user gave the signer. */
  signer?: string
}

/** The team seam the plan asks, for a row its user has not trusted personally. */
export type TeamFn = (root: string, row: Row) => SignatureAnswer | undefined

/** A stable key of an answer (the plan memo compares answers by it). */
export function signatureKey(a: SignatureAnswer | undefined): string {
  return a ? `${a.state}\0${a.signer ?? ''}` : ''
}

/**
 * A row's trust, the one such type: what the store records for its
 * fingerprint (`trusted`, `untrusted`, `changed`), or `store-problem` when
 * the store cannot be used at all (fail closed).
 */
export type TrustState = 'trusted' | 'untrusted' | 'changed' | 'store-problem'

export function emptyTrustStore(): TrustStore {
  return { version: 1, projects: dict() }
}

/** A prototype-less record: a server may be called `__proto__` (it matches the name rule). */
export function dict<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>
}

/** The record of `name` under `canonicalRoot`, if any. */
export function trustRecordOf(store: TrustStore, canonicalRoot: string, name: string): TrustRecord | undefined {
  const record = Object.hasOwn(store.projects, canonicalRoot) ? store.projects[canonicalRoot]?.servers : undefined
  return record && Object.hasOwn(record, name) ? record[name] : undefined
}

/** What a readable store records for `name` with `fingerprint` under `canonicalRoot`. */
export function trustStateOf(
  store: TrustStore,
  canonicalRoot: string,
  name: string,
  fingerprint: string,
): Exclude<TrustState, 'store-problem'> {
  const r = trustRecordOf(store, canonicalRoot, name)
  if (!r) return 'untrusted'
  return r.fingerprint === fingerprint ? 'trusted' : 'changed'
}

/** A row needs trust unless every field of its effective entry comes from the user's own file. */
export function needsTrust(row: Pick<Row, 'scope' | 'file' | 'sources'>): boolean {
  return repositoryContribution(row)
}

/**
 * The gate's answer for a row from a store as read: `store-problem` when the
 * store was refused (`problem`), else `trustStateOf` the row's fingerprint.
 */
export function trustAnswerOf(
  store: TrustStore,
  problem: string | undefined,
  canonicalRoot: string,
  row: Row,
): TrustState {
  if (problem !== undefined) return 'store-problem'
  if (!row.entry) return 'untrusted'
  return trustStateOf(store, canonicalRoot, row.name, rowFingerprint(row))
}

/** Whether the environment turns the gate off (`DSH_MCP_TRUST_ALL=1`). */
/** Whether this user withdrew the team signatures of `name` in the project (`dsh-mcp untrust`). */
export function revokedIn(store: TrustStore, canonicalRoot: string, name: string): boolean {
  const p = Object.hasOwn(store.projects, canonicalRoot) ? store.projects[canonicalRoot] : undefined
  return p?.revoked !== undefined && Object.hasOwn(p.revoked, name)
}

export function trustGateOff(env: Readonly<Record<string, string | undefined>>): boolean {
  const v = env.DSH_MCP_TRUST_ALL?.trim().toLowerCase()
  return v === '1' || v === 'true'
}

/**
 * Keep only well-formed records of a decoded store file; anything else reads
 * as absent (a store that is not ours, or half-written by hand, trusts nothing).
 */
export function sanitizeTrustStore(value: unknown): TrustStore {
  const store = emptyTrustStore()
  if (!isRecord(value) || value.version !== 1 || !isRecord(value.projects)) return store
  for (const [root, project] of Object.entries(value.projects)) {
    if (!isRecord(project) || !isRecord(project.servers)) continue
    const servers = dict<TrustRecord>()
    for (const [name, rec] of Object.entries(project.servers)) {
      if (isRecord(rec) && typeof rec.fingerprint === 'string' && rec.fingerprint !== '') {
        const fields = isRecord(rec.fields)
          ? Object.fromEntries(Object.entries(rec.fields).filter(([, v]) => typeof v === 'string'))
          : undefined
        const tools = sanitizePins(rec.tools)
        servers[name] = {
          fingerprint: rec.fingerprint,
          trustedAt: typeof rec.trustedAt === 'string' ? rec.trustedAt : '',
          ...(fields ? { fields: fields as Record<string, string> } : {}),
          ...(tools ? { tools } : {}),
        }
      }
    }
    const revoked = dict<string>()
    if (isRecord(project.revoked))
      for (const [name, at] of Object.entries(project.revoked)) if (typeof at === 'string') revoked[name] = at
    const signedTools = dict<{ fingerprint: string; tools: ToolPins }>()
    if (isRecord(project.signedTools))
      for (const [name, r] of Object.entries(project.signedTools)) {
        const tools = isRecord(r) ? sanitizePins(r.tools) : undefined
        if (isRecord(r) && typeof r.fingerprint === 'string' && tools)
          signedTools[name] = { fingerprint: r.fingerprint, tools }
      }
    const signed = Object.keys(signedTools).length > 0
    if (Object.keys(servers).length > 0 || Object.keys(revoked).length > 0 || signed)
      store.projects[root] = {
        servers,
        ...(Object.keys(revoked).length > 0 ? { revoked } : {}),
        ...(signed ? { signedTools } : {}),
      }
  }
  return store
}
