/**
 * `npm install` / `npm ci` print no `npm warn install-scripts` advisory for
 * this package's own dependencies (npm >= 11.16 lists every package with an
 * install script not covered by `allowScripts` in package.json): every
 * locked package that has one is named there, each decision explicit. The
 * advisory itself was seen and silenced by hand with npm 11.19 (`npm ci` in a
 * copy of package.json + package-lock.json); this keeps the list complete.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'

const read = (f: string) => JSON.parse(readFileSync(new URL(`../../${f}`, import.meta.url), 'utf8'))

test('every locked package with an install script is covered by allowScripts', () => {
  const allow = (read('package.json') as { allowScripts?: Record<string, boolean> }).allowScripts ?? {}
  const lock = read('package-lock.json') as {
    packages: Record<string, { hasInstallScript?: boolean; version?: string }>
  }
  const uncovered = Object.entries(lock.packages)
    .filter(([, p]) => p.hasInstallScript)
    .map(([path, p]) => ({
      name: path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length),
      version: p.version,
    }))
    .filter(({ name, version }) => allow[name] === undefined && allow[`${name}@${version}`] === undefined)
  assert.deepEqual(
    uncovered,
    [],
    'add each to "allowScripts" in package.json (true to run its script, false to block it)',
  )
})
