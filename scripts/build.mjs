// Build: compile src/ with tsc into a fresh directory, bundle the CLI into its cli-bundle/
// (scripts/bundle-cli.mjs: what bin/dsh-mcp.js runs), and swap it in as lib/ (so a CLI running from
// lib/ during a rebuild never sees a half-empty tree), bundle the browser half client/src/ into
// client/panel.js (scripts/bundle-client.mjs), then write the JSON Schema to schema/.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { bundleCli } from './bundle-cli.mjs'
import { bundleClient } from './bundle-client.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const require = createRequire(import.meta.url)
const lib = path.join(root, 'lib')
const next = path.join(root, `.lib-next-${process.pid}`)
const old = path.join(root, `.lib-old-${process.pid}`)
const failures = []
try {
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.json', '--outDir', next], {
    cwd: root,
    stdio: 'inherit',
  })
} catch {
  failures.push('tsc reported errors')
}
// tsc emits despite type errors; the bundle does not depend on type checking either.
if (existsSync(next)) {
  try {
    await bundleCli(path.join(next, 'cli-bundle'))
  } catch (err) {
    failures.push(`bundling the CLI failed: ${err.message}`)
  }
}
try {
  await bundleClient()
} catch (err) {
  failures.push(`bundling the browser half (client/src) failed: ${err.message}`)
}
if (existsSync(next)) {
  if (existsSync(lib)) renameSync(lib, old)
  renameSync(next, lib)
  rmSync(old, { recursive: true, force: true })
}
if (failures.length > 0) {
  for (const f of failures) console.error(`build: ${f}`)
  process.exit(1)
}
const { friendlyJsonSchema } = await import('../lib/config/json-schema.js')
mkdirSync(path.join(root, 'schema'), { recursive: true })
const tmp = path.join(root, 'schema', `.dsh-mcp.schema.json.${process.pid}`)
writeFileSync(tmp, JSON.stringify(friendlyJsonSchema(), null, 2) + '\n')
renameSync(tmp, path.join(root, 'schema', 'dsh-mcp.schema.json'))
