/**
 * The environment a stdio server is started with, and secret redaction.
 *
 * Contract: `childEnv` reproduces the official client's rule exactly — the
 * inherited environment minus every name matching `/KEY|PASSWORD|SECRET|TOKEN/i`
 * or starting with `DSH_` (any case), then the entry's own `env` on top — so
 * doctor starts what the host will start. (The MCP SDK adds its small safe
 * default set, HOME/PATH/…, underneath, for doctor as for the host.)
 *
 * `secretValues`, `redact` and `MIN_SECRET_LENGTH` are re-exported from
 * `config/redact.ts`, the one implementation the host uses too.
 *
 * @module
 */
export { MIN_SECRET_LENGTH, redact, secretValues } from '../config/redact.ts'

export const SENSITIVE_ENV_PATTERN = /KEY|PASSWORD|SECRET|TOKEN/i

/** The inherited environment as the official client passes it on. */
export function scrubbedEnv(parent: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(parent)) {
    if (value === undefined || SENSITIVE_ENV_PATTERN.test(key) || key.toUpperCase().startsWith('DSH_')) continue
    out[key] = value
  }
  return out
}

export function childEnv(
  parent: Readonly<Record<string, string | undefined>>,
  extra: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  return { ...scrubbedEnv(parent), ...extra }
}
