/**
 * The one judgement of a row: does it run, and if not, why.
 *
 * Contract: `verdictOf` is pure (no fs, no host, no timers) and is the only
 * place that decides; the host's plan (desired.ts), `doctor`, `list`, `get`,
 * `status` and the trust review map its tagged result. Order of cause:
 * 1. `shadowed` — a stronger layer defines the name (never started);
 * 2. (a file the reading edge refused — another user's, a link out of the
 *    project — has no rows: it is judged as a whole by `fileVerdictOf`, the
 *    file-level `refused` `ownership` / `symlink-out` / `invalid`);
 * 3. `refused` `invalid` — the entry does not validate;
 * 4. `disabled` — `enabled: false`, or a stronger file's `disable:` lists it
 *    (`row.disabledBy`, checked before validity: turned off is turned off);
 * 5. `needs-trust` — the row has a repository contribution (any field from a
 *    file that is not the user's own, `needsTrust`) and the gate is on and
 *    answers anything but `trusted`, and the team seam (`team`: a signed
 *    approval verified by the edge) does not answer `trusted` either (a row
 *    that runs on a signature alone carries `signedBy`; a store-problem never
 *    asks the seam): `store-problem` (the store cannot be
 *    used: fail closed), `changed`, `repository-contribution` (a user row
 *    that a repository file overrides), or `new`. Trust is judged on the
 *    unexpanded entry, before any `${VAR}` is read;
 * 5b. `refused` `not-locked` — with `requireLock`, a repository row that runs
 *    a registry package through a package runner (config/runners.ts) has no
 *    `.dsh/mcp.lock` entry (`row.lock`, lock/pin.ts): unlocked, written
 *    `lock: false`, or a runner the lock does not support; `fix` is
 *    `dsh-mcp lock <name>`;
 * 6. `skipped` — a `${VAR}` without default is unset (`variables`, named;
 *    `withheld`: those of them the checkout's `.env` sets, which `${VAR}`
 *    never reads), or an expanded value is unsafe (a line break in a
 *    header); `problems` are the fields' one-line problems, `reason` the
 *    same for a server with its fix;
 * 7. `refused` `invalid` — the mapped official config does not validate;
 * 8. `runs` — with the expanded entry and the exact official config to
 *    launch (reconnect tuning from a repository file clamped: `clampReconnect`).
 * Messages name servers, fields, variables and files — never a value.
 * Every edge renders a verdict from its fields (`verdictView` is the form
 * that travels: placements, status files, `--json`), never by reading its
 * `reason` back; plan/states.ts maps a tag to each edge's state word.
 * Split by concern: the file-level verdict and the travelling form live in
 * verdict-view.ts, the repository reconnect bounds in reconnect.ts; both are
 * re-exported here, so importers keep one entry point.
 *
 * @module
 */
import { formatDiagnostic, formatPath } from '../config/diagnostics.ts'
import { unsafeValueProblems } from '../config/entry-values.ts'
import { type Env, expandEntry, projectSecretsOnly, type SecretSource, secretSetCommand } from '../config/expand.ts'
import { repositoryContribution, type Row, type Source } from '../config/layers.ts'
import { credentialsAsHeader, type OfficialConfig, OfficialConfigSchema, toOfficialConfig } from '../config/official.ts'
import { redact, secretValues } from '../config/redact.ts'
import type { Entry } from '../config/schema.ts'
import { lockTarget } from '../lock/spec.ts'
import { trustCommand } from '../trust/command.ts'
import { needsTrust, type SignatureAnswer, type TrustState } from '../trust/state.ts'
import { clampReconnect, reconnectFromRepository } from './reconnect.ts'

export { clampReconnect, REPOSITORY_RECONNECT_LIMITS } from './reconnect.ts'
export { type FileVerdict, fileVerdictOf, type VerdictView, verdictView } from './verdict-view.ts'

export type NeedsTrustWhy = 'new' | 'changed' | 'repository-contribution' | 'store-problem'
export type RefusedWhy = 'ownership' | 'invalid' | 'symlink-out' | 'not-locked'

export type Verdict =
  | { tag: 'runs'; entry: Entry; config: OfficialConfig; notes: string[]; signedBy?: string }
  | { tag: 'needs-trust'; why: NeedsTrustWhy; reason: string; fix: string; signature?: SignatureAnswer }
  | { tag: 'skipped'; variables: string[]; withheld: string[]; secrets?: string[]; problems: string[]; reason: string }
  | { tag: 'refused'; why: RefusedWhy; reason: string; file?: string; fix?: string }
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
  /**
   * The team seam (trust/state.ts `SignatureAnswer`), asked only for a row the user has not trusted personally
   * (never on `store-problem`): the edge verified the signature and hands in the typed result.
   */
  team?: (row: Row) => SignatureAnswer | undefined
  /** What is wrong with the trust store (for the `store-problem` reason). */
  storeProblem?: string
  /** The plugin option `requireLock`: a repository row that runs a registry package needs a lock entry (`row.lock`). */
  requireLock?: boolean
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
  if (row.disabledBy) return { tag: 'disabled', reason: `disable: in ${row.disabledBy.file}` }
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
  let signedBy: string | undefined
  if (!input.gateOff && needsTrust(row)) {
    if (input.root === null) return { tag: 'refused', why: 'invalid', reason: 'a project row outside a project' }
    const answer = input.trust(row)
    const team = answer === 'trusted' || answer === 'store-problem' ? undefined : input.team?.(row)
    if (team?.state === 'trusted') signedBy = team.signer ?? ''
    else if (answer !== 'trusted') {
      const why: NeedsTrustWhy =
        answer === 'store-problem'
          ? 'store-problem'
          : answer === 'changed'
            ? 'changed'
            : row.scope === 'user'
              ? 'repository-contribution'
              : 'new'
      const fix = trustCommand(input.root, row.name)
      return {
        tag: 'needs-trust',
        why,
        reason: needsTrustReason(why, fix, input.storeProblem),
        fix,
        ...(team ? { signature: team } : {}),
      }
    }
  }
  const unlocked = input.requireLock ? notLocked(row) : undefined
  if (unlocked) return unlocked
  // A row a repository contributed to reads the project's secrets only, never the user's own (`--user`).
  const fromRepository = repositoryContribution(row)
  const expanded = expandEntry(row.entry, input.env, {
    ...(input.withheld ? { withheld: input.withheld } : {}),
    ...(input.secrets ? { secrets: fromRepository ? projectSecretsOnly(input.secrets) : input.secrets } : {}),
    secretCommand: (n) => secretSetCommand(n, !fromRepository),
  })
  if ('errors' in expanded) {
    const variables = [...new Set(expanded.errors.flatMap((e) => e.missing))]
    const withheld = variables.filter((v) => input.withheld?.has(v) === true)
    const secrets = [...new Set(expanded.errors.flatMap((e) => e.missingSecrets ?? []))]
    const problems = expanded.errors.map((e) => e.message)
    return {
      tag: 'skipped',
      variables,
      withheld,
      ...(secrets.length ? { secrets } : {}),
      problems,
      reason: `server "${row.name}": ${expanded.errors.map((e) => (e.hint ? `${e.message} (${e.hint})` : e.message)).join('; ')}`,
    }
  }
  // A variable may bring what the written text could not (a line break in a header value).
  const unsafe = unsafeValueProblems(expanded.entry)
  if (unsafe.length) {
    const problems = unsafe.map((p) => `${formatPath(p.path)} ${p.message} once its variables are expanded`)
    return {
      tag: 'skipped',
      variables: [],
      withheld: [],
      problems,
      reason: `server "${row.name}": ${problems.join('; ')}`,
    }
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
  return { tag: 'runs', entry, config, notes, ...(signedBy !== undefined ? { signedBy } : {}) }
}

/** `requireLock`: the refusal of a repository row that runs a registry package without a lock entry, else undefined. */
function notLocked(row: Row): Verdict | undefined {
  if (row.scope === 'user' || row.lock || !row.entry || row.entry.command === undefined) return undefined
  const t = lockTarget(row.entry)
  if (!t) return undefined
  const fix = `dsh-mcp lock ${row.name}`
  const why =
    'refuse' in t
      ? t.refuse.split(';')[0]
      : row.entry.lock === false
        ? 'written lock: false'
        : `no entry for it in .dsh/mcp.lock`
  return {
    tag: 'refused',
    why: 'not-locked',
    reason: `requireLock: runs a registry package without a lock entry (${why}); run: ${fix}`,
    file: row.file,
    fix,
  }
}
