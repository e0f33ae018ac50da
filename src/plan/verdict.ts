/**
 * The one judgement of a row: does it run, and if not, why.
 *
 * Contract: `verdictOf` is pure (no fs, no host, no timers) and is the only
 * place that decides; the host's plan (desired.ts), `doctor`, `list`, `get`,
 * `status` and the trust review map its tagged result. Order of cause:
 * 1. `shadowed` — a stronger layer defines the name (never started);
 * 2. `refused` `ownership` / `symlink-out` — a file the row comes from was
 *    refused by the reading edge (`refusals`, keyed by absolute file path);
 * 3. `refused` `invalid` — the entry does not validate;
 * 4. `disabled` — `enabled: false`;
 * 5. `needs-trust` — the row has a repository contribution (any field from a
 *    file that is not the user's own, `needsTrust`) and the gate is on and
 *    answers anything but `trusted`: `store-problem` (the store cannot be
 *    used: fail closed), `changed`, `repository-contribution` (a user row
 *    that a repository file overrides), or `new`. Trust is judged on the
 *    unexpanded entry, before any `${VAR}` is read;
 * 6. `skipped` — a `${VAR}` without default is unset (named), or an expanded
 *    value is unsafe (a line break in a header); `problems` are the fields'
 *    one-line problems, `reason` the same for a server with its fix;
 * 7. `refused` `invalid` — the mapped official config does not validate;
 * 8. `runs` — with the expanded entry and the exact official config to
 *    launch (reconnect tuning from a repository file clamped: `clampReconnect`).
 * Messages name servers, fields, variables and files — never a value.
 *
 * @module
 */
import { formatDiagnostic, formatPath } from '../config/diagnostics.ts'
import { unsafeValueProblems } from '../config/entry.ts'
import { type Env, expandEntry, type SecretSource, secretSetCommand } from '../config/expand.ts'
import { contributors, type Row, type Source } from '../config/layers.ts'
import { credentialsAsHeader, type OfficialConfig, OfficialConfigSchema, toOfficialConfig } from '../config/official.ts'
import { redact, secretValues } from '../config/redact.ts'
import { OFFICIAL_RECONNECT_DEFAULTS, type Entry } from '../config/schema.ts'
import { trustCommand } from '../trust/command.ts'
import { needsTrust, type TrustState } from '../trust/state.ts'

export type NeedsTrustWhy = 'new' | 'changed' | 'repository-contribution' | 'store-problem'
export type RefusedWhy = 'ownership' | 'invalid' | 'symlink-out'

/** Why the reading edge refused a file (ownership, a symlink out of the project). */
export interface FileRefusal {
  why: Exclude<RefusedWhy, 'invalid'>
  /** One line: what is wrong and how to allow or repair it. */
  message: string
}

export type Verdict =
  | { tag: 'runs'; entry: Entry; config: OfficialConfig; notes: string[] }
  | { tag: 'needs-trust'; why: NeedsTrustWhy; reason: string }
  | { tag: 'skipped'; variables: string[]; secrets?: string[]; problems: string[]; reason: string }
  | { tag: 'refused'; why: RefusedWhy; reason: string; file?: string }
  | { tag: 'disabled'; reason: string }
  | { tag: 'shadowed'; by: Source; reason: string }

export type VerdictTag = Verdict['tag']

export interface VerdictInput {
  /** The project root; null for the global view (the user layer alone). */
  root: string | null
  env: Env
  /** Names of `env` that `${VAR}` must not read (the repository's `.env`: config/expand.ts `ExpandOptions`). */
  withheld?: ReadonlySet<string>
  /** The user's secret store for `${secret:NAME}` (values read only once every other check passed). */
  secrets?: SecretSource
  /** `$DSH_HOME`: where a user row's relative `cwd` resolves. */
  dshHome: string
  platform: string
  /** The gate's answer, asked only for a row that needs trust (never when `gateOff`). */
  trust: (row: Row) => TrustState
  gateOff?: boolean
  /** What is wrong with the trust store (for the `store-problem` reason). */
  storeProblem?: string
  /** Files the reading edge refused, by absolute path. */
  refusals?: ReadonlyMap<string, FileRefusal>
}

/** How a repository file may tune reconnects: never faster nor more persistent than the official client's defaults. */
export const REPOSITORY_RECONNECT_LIMITS = {
  minInitialDelayMs: OFFICIAL_RECONNECT_DEFAULTS.initialDelayMs,
  maxAttempts: 10,
} as const

/** Whether the row's `reconnect` comes from a repository file (the winner's own, or an override's). */
function reconnectFromRepository(row: Row): boolean {
  return contributors(row).some((s, i) => s.scope !== 'user' && (i === 0 || s.keys?.includes('reconnect') === true))
}

/** `reconnect` bounded by `REPOSITORY_RECONNECT_LIMITS` (a note when anything changed). */
export function clampReconnect(entry: Entry): { entry: Entry; note?: string } {
  const rc = entry.reconnect
  if (!rc) return { entry }
  const out = { ...rc }
  if (out.initialDelayMs !== undefined && out.initialDelayMs < REPOSITORY_RECONNECT_LIMITS.minInitialDelayMs)
    out.initialDelayMs = REPOSITORY_RECONNECT_LIMITS.minInitialDelayMs
  if (out.maxAttempts !== undefined && out.maxAttempts > REPOSITORY_RECONNECT_LIMITS.maxAttempts)
    out.maxAttempts = REPOSITORY_RECONNECT_LIMITS.maxAttempts
  if (
    out.maxDelayMs !== undefined &&
    out.maxDelayMs < (out.initialDelayMs ?? OFFICIAL_RECONNECT_DEFAULTS.initialDelayMs)
  )
    out.maxDelayMs = out.initialDelayMs ?? OFFICIAL_RECONNECT_DEFAULTS.initialDelayMs
  const same =
    out.initialDelayMs === rc.initialDelayMs && out.maxAttempts === rc.maxAttempts && out.maxDelayMs === rc.maxDelayMs
  if (same) return { entry }
  return {
    entry: { ...entry, reconnect: out },
    note: `reconnect from a repository file bounded (first delay >= ${REPOSITORY_RECONNECT_LIMITS.minInitialDelayMs} ms, at most ${REPOSITORY_RECONNECT_LIMITS.maxAttempts} attempts)`,
  }
}

const TRUST_REASON: Record<NeedsTrustWhy, string> = {
  new: 'not trusted yet',
  changed: 'changed since trusted',
  'repository-contribution': 'a repository file overrides this user server',
  'store-problem': 'the trust store cannot be used',
}

/** The one-line reason of a `needs-trust` verdict, with what to run (`command`: `dsh-mcp trust -C <root> <name>`). */
export function needsTrustReason(why: NeedsTrustWhy, command: string, storeProblem?: string): string {
  if (why === 'store-problem')
    return `${TRUST_REASON[why]}${storeProblem ? ` (${storeProblem})` : ''}: nothing counts as trusted until it is repaired`
  return `${TRUST_REASON[why]}: review it, then run ${command}`
}

export function verdictOf(row: Row, input: VerdictInput): Verdict {
  if (row.state === 'shadowed') {
    const by = row.shadowedBy ?? { scope: row.scope, file: row.file }
    return { tag: 'shadowed', by, reason: `shadowed by ${by.scope} layer (${by.file})` }
  }
  for (const s of contributors(row)) {
    const refusal = input.refusals?.get(s.file)
    if (refusal) return { tag: 'refused', why: refusal.why, reason: refusal.message, file: s.file }
  }
  if (row.state === 'invalid' || !row.entry) {
    const d = row.diagnostics.find((x) => x.severity === 'error')
    return {
      tag: 'refused',
      why: 'invalid',
      reason: d ? formatDiagnostic(d) : 'invalid entry',
      file: d?.file ?? row.file,
    }
  }
  if (row.state === 'disabled') return { tag: 'disabled', reason: 'enabled: false' }
  if (!input.gateOff && needsTrust(row)) {
    if (input.root === null) return { tag: 'refused', why: 'invalid', reason: 'a project row outside a project' }
    const answer = input.trust(row)
    if (answer !== 'trusted') {
      const why: NeedsTrustWhy =
        answer === 'store-problem'
          ? 'store-problem'
          : answer === 'changed'
            ? 'changed'
            : row.scope === 'user'
              ? 'repository-contribution'
              : 'new'
      return {
        tag: 'needs-trust',
        why,
        reason: needsTrustReason(why, trustCommand(input.root, row.name), input.storeProblem),
      }
    }
  }
  const expanded = expandEntry(row.entry, input.env, {
    ...(input.withheld ? { withheld: input.withheld } : {}),
    ...(input.secrets ? { secrets: input.secrets } : {}),
    secretCommand: (n) => secretSetCommand(n, row.scope === 'user'),
  })
  if ('errors' in expanded) {
    const variables = [...new Set(expanded.errors.flatMap((e) => e.missing))]
    const secrets = [...new Set(expanded.errors.flatMap((e) => e.missingSecrets ?? []))]
    const problems = expanded.errors.map((e) => e.message)
    return {
      tag: 'skipped',
      variables,
      ...(secrets.length ? { secrets } : {}),
      problems,
      reason: `server "${row.name}": ${expanded.errors.map((e) => (e.hint ? `${e.message} (${e.hint})` : e.message)).join('; ')}`,
    }
  }
  // A variable may bring what the written text could not (a line break in a header value).
  const unsafe = unsafeValueProblems(expanded.entry)
  if (unsafe.length) {
    const problems = unsafe.map((p) => `${formatPath(p.path)} ${p.message} once its variables are expanded`)
    return { tag: 'skipped', variables: [], problems, reason: `server "${row.name}": ${problems.join('; ')}` }
  }
  const notes: string[] = []
  let entry = expanded.entry
  if (reconnectFromRepository(row)) {
    const clamped = clampReconnect(entry)
    entry = clamped.entry
    if (clamped.note) notes.push(clamped.note)
  }
  const origin = row.scope === 'user' ? input.dshHome : (input.root ?? input.dshHome)
  let config: OfficialConfig
  try {
    // URL userinfo travels as an Authorization header: fetch refuses it and would quote the URL in its error.
    config = credentialsAsHeader(toOfficialConfig(row.name, entry, { root: origin, platform: input.platform }))
  } catch (err) {
    return {
      tag: 'refused',
      why: 'invalid',
      reason: redact((err as Error).message, secretValues(row.entry, entry, input.env)),
      file: row.file,
    }
  }
  const checked = OfficialConfigSchema.safeParse(config)
  if (!checked.success) {
    const issue = checked.error.issues[0]
    return {
      tag: 'refused',
      why: 'invalid',
      reason:
        `the mapped config is not valid for the official client: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim(),
      file: row.file,
    }
  }
  return { tag: 'runs', entry, config, notes }
}

/** A verdict as `--json` and status files carry it: the tag, the reason's kind, the one-line reason. */
export interface VerdictView {
  tag: VerdictTag
  why: string | null
  reason: string | null
}

export function verdictView(v: Verdict): VerdictView {
  switch (v.tag) {
    case 'runs':
      return { tag: 'runs', why: null, reason: v.notes[0] ?? null }
    case 'needs-trust':
    case 'refused':
      return { tag: v.tag, why: v.why, reason: v.reason }
    case 'skipped':
      return {
        tag: 'skipped',
        why: [...v.variables, ...(v.secrets ?? []).map((n) => `secret:${n}`)].join(', ') || null,
        reason: v.reason,
      }
    default:
      return { tag: v.tag, why: null, reason: v.reason }
  }
}
