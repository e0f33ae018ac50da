// Build: compile src/ with tsc into a fresh directory and swap it in as lib/ (so a CLI running from
// lib/ during a rebuild never sees a half-empty tree), then write the JSON Schema to schema/.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const require = createRequire(import.meta.url)
const lib = path.join(root, 'lib')
const next = path.join(root, `.lib-next-${process.pid}`)
const old = path.join(root, `.lib-old-${process.pid}`)
let failed = false
try {
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.json', '--outDir', next], { cwd: root, stdio: 'inherit' })
} catch {
  failed = true
}
if (existsSync(next)) {
  if (existsSync(lib)) renameSync(lib, old)
  renameSync(next, lib)
  rmSync(old, { recursive: true, force: true })
}
if (failed) {
  console.error('build: tsc reported errors')
  process.exit(1)
}
const { friendlyJsonSchema } = await import('../lib/config/json-schema.js')
mkdirSync(path.join(root, 'schema'), { recursive: true })
const tmp = path.join(root, 'schema', `.dsh-mcp.schema.json.${process.pid}`)
writeFileSync(tmp, JSON.stringify(friendlyJsonSchema(), null, 2) + '\n')
renameSync(tmp, path.join(root, 'schema', 'dsh-mcp.schema.json'))
