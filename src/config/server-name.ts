/**
 * The server-name rule of the official MCP client, written once: its
 * pattern, its shape as shown to people, the rule in words and the one
 * refusal message — used by the schema (and so the JSON Schema), the parser
 * and the CLI.
 *
 * Contract: pure, imports nothing (the CLI's command tree reads it without
 * loading zod). `serverNameRefusal(name)` is undefined for an allowed name,
 * else one line that says why and what is allowed.
 *
 * @module
 */

/** The longest name the official client accepts. */
export const SERVER_NAME_MAX = 32
/** The rule as a pattern body, as help texts and the JSON Schema show it. */
export const SERVER_NAME_SHAPE = `[A-Za-z0-9_-]{1,${SERVER_NAME_MAX}}`
export const SERVER_NAME_PATTERN = new RegExp(`^${SERVER_NAME_SHAPE}$`)
/** The rule in words, for every message that refuses a name. */
export const SERVER_NAME_RULE = `use 1-${SERVER_NAME_MAX} letters, digits, "_" or "-"`

/** Why `name` is refused (undefined: it is allowed): the name (cut at 40 characters), the reason, the rule. */
export function serverNameRefusal(name: string): string | undefined {
  if (SERVER_NAME_PATTERN.test(name)) return undefined
  const why =
    name.length === 0
      ? 'it is empty'
      : name.length > SERVER_NAME_MAX
        ? `it has ${name.length} characters`
        : 'it has other characters'
  return `server name "${name.length > 40 ? `${name.slice(0, 40)}…` : name}" is not allowed (${why}): ${SERVER_NAME_RULE}`
}
