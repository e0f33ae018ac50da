/**
 * The exact command that trusts one server, as the host and the plan say it.
 *
 * Contract: pure. `shellWord` leaves a word made only of characters no POSIX
 * shell splits or expands as it is and single-quotes anything else (a `'`
 * inside becomes `'\''`), so the command can be pasted as shown.
 *
 * @module
 */

/** A shell word: quoted only when it needs to be. */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`
}

/** `dsh-mcp trust -C <root> <name>`, each word quoted when needed. */
export function trustCommand(root: string, name: string): string {
  return `dsh-mcp trust -C ${shellWord(root)} ${shellWord(name)}`
}
