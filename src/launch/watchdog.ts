/**
 * The host's watchdog: one small process per host (not per server) that ends the host's stdio trees
 * when the host is gone — killed outright (SIGKILL), or exited without ending them. Started by
 * host/watchdog.ts as `node <this script>`, detached (its own process group: a terminal's Ctrl-C to the
 * host does not reach it) with stdin a pipe from the host and nothing else.
 *
 * Contract: each stdin line `+<group> <marker>` lists a tree (its process group, `-` for none, and its
 * tree marker, tree.ts), `-<group> <marker>` unlists it; any other line is ignored. When stdin ends or
 * fails (the host's end of the pipe is closed: only the host holds it), every tree still listed is ended
 * (tree.ts `endTree`: SIGTERM to the group and every marked process, SIGKILL after `GRACE_MS`), then it
 * exits 0. It writes nothing, signals only what it was told, and ignores SIGINT and SIGHUP.
 *
 * Node builtins and tree.ts only (it starts on every host with a stdio server: nothing to load).
 *
 * @module
 */
import { endTree, type Tree } from './tree.ts'

const GRACE_MS = 1000
const LINE = /^([+-])(\d+|-) ([0-9a-f]{8,64})$/

const trees = new Map<string, Tree>()
let carry = ''
let ending = false

function take(line: string): void {
  const m = LINE.exec(line)
  if (!m) return
  const [, op, group, marker] = m as unknown as [string, string, string, string]
  const key = `${group} ${marker}`
  if (op === '-') trees.delete(key)
  else trees.set(key, { group: group === '-' ? undefined : Number(group), marker })
}

function endAll(): void {
  if (ending) return
  ending = true
  void Promise.all([...trees.values()].map((t) => endTree(t, GRACE_MS))).then(() => process.exit(0))
}

for (const s of ['SIGINT', 'SIGHUP'] as const) process.on(s, () => {})
process.stdin.setEncoding('utf8')
process.stdin.on('data', (chunk: string) => {
  carry += chunk
  const lines = carry.split('\n')
  carry = lines.pop() ?? ''
  for (const l of lines) take(l)
})
process.stdin.on('end', endAll)
process.stdin.on('error', endAll)
