// Build: compile src/ to lib/ with tsc, then write the JSON Schema of the friendly format to schema/.
import { execFileSync } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const require = createRequire(import.meta.url)
rmSync(new URL('../lib', import.meta.url), { recursive: true, force: true })
try {
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: root, stdio: 'inherit' })
} catch {
  console.error('build: tsc reported errors')
  process.exit(1)
}
const { friendlyJsonSchema } = await import('../lib/config/json-schema.js')
mkdirSync(new URL('../schema', import.meta.url), { recursive: true })
writeFileSync(new URL('../schema/dsh-mcp.schema.json', import.meta.url), JSON.stringify(friendlyJsonSchema(), null, 2) + '\n')
