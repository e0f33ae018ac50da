/**
 * npm pack hygiene: the real tarball (built from a staged copy of this
 * checkout, see tarball.ts) ships exactly the runtime, the CLI (the bin and
 * the esbuild output it runs, `lib/cli-bundle/`), the schema, the bundle
 * patch and the docs the contract lists — no sources, tests, fixtures or
 * source maps — and its `dsh-mcp` bin works when installed from
 * the tarball and run through the symlinked `node_modules/.bin` entry, with
 * no host package installed (the host packages are optional peers).
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { existsSync, lstatSync, readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { before, test } from 'node:test'
import { NODE22, describeRun, runIsolated } from '../support/dsh-cli.ts'
import { makeTempDir } from '../support/tmp.ts'
import { type Tarball, packTarball } from '../support/tarball.ts'

let tarball: Tarball
let paths: Set<string>

before(() => {
  tarball = packTarball(makeTempDir('dsh-mcp-pack-').path)
  paths = new Set(tarball.files.map((f) => f.path))
})

function tarText(member: string): string {
  return execFileSync('tar', ['-xzOf', tarball.file, `package/${member}`], { encoding: 'utf8' })
}

test('the tarball ships the runtime, CLI, schema, bundle patch and docs', (t) => {
  t.diagnostic(`${tarball.file}: ${tarball.files.length} files; build ${tarball.buildMs} ms, pack ${tarball.packMs} ms`)
  const required = [
    'package.json',
    'lib/index.js',
    'lib/index.d.ts',
    'bin/dsh-mcp.js',
    'lib/cli-bundle/cli.cjs',
    'lib/cli-bundle/list.cjs',
    'bin/load-bundle.js',
    'lib/launch/launcher.js',
    'schema/dsh-mcp.schema.json',
    'cordis.patch.yml',
    'patches/hmr.yml',
    'README.md',
    'README.zh.md',
    'LICENSE',
  ]
  const missing = required.filter((p) => !paths.has(p))
  assert.deepEqual(missing, [], `missing from the tarball: ${missing.join(', ')}`)
  assert.ok(tarball.files.filter((f) => f.path.startsWith('lib/') && f.path.endsWith('.js')).length > 1)
  JSON.parse(tarText('schema/dsh-mcp.schema.json'))
})

test('the tarball ships no sources, tests, fixtures, maps or stray top-level files', () => {
  const topLevel = new Set([
    'lib',
    'bin',
    'client',
    'schema',
    'patches',
    'cordis.patch.yml',
    'README.md',
    'README.zh.md',
    'LICENSE',
    'package.json',
  ])
  const bad = [...paths].filter(
    (p) =>
      !topLevel.has(p.split('/')[0]!) ||
      /^(src|test)\//.test(p) ||
      // The CLI ships once, as the bundle the bin runs: its tsc output stays home.
      /^lib\/(cli|doctor)\//.test(p) ||
      /(^|\/)fixtures?\//.test(p) ||
      (p.endsWith('.ts') && !p.endsWith('.d.ts')) ||
      /\.(map|tsbuildinfo|tgz|log)$/.test(p),
  )
  assert.deepEqual(bad, [], `should not ship: ${bad.join(', ')}`)
})

test('bin/dsh-mcp.js is executable in the tarball', () => {
  const bin = tarball.files.find((f) => f.path === 'bin/dsh-mcp.js')
  assert.ok(bin, 'bin/dsh-mcp.js is packed')
  assert.equal(bin.mode & 0o111, 0o111, `mode ${bin.mode.toString(8)} in npm's listing`)
  const listing = execFileSync('tar', ['-tvzf', tarball.file, 'package/bin/dsh-mcp.js'], { encoding: 'utf8' })
  assert.match(listing, /^-rwxr-xr-x /, `tar listing: ${listing}`)
  assert.match(tarText('bin/dsh-mcp.js'), /^#!\/usr\/bin\/env node\n/)
})

test('package.json entry points resolve to shipped files, and it declares the dsh bundle', () => {
  const pkg = JSON.parse(tarText('package.json'))
  assert.equal(pkg.name, 'dsh-project-mcp')
  const targets = [
    pkg.main,
    pkg.types,
    pkg.exports?.['.']?.default,
    pkg.exports?.['.']?.types,
    pkg.exports?.['./schema.json'],
    pkg.exports?.['./client'],
    ...Object.values(pkg.bin ?? {}),
  ]
  for (const target of targets) {
    assert.equal(typeof target, 'string')
    assert.ok(paths.has(String(target).replace(/^\.\//, '')), `${target} is shipped`)
  }
  assert.equal(pkg.bin?.['dsh-mcp'], 'bin/dsh-mcp.js')
  assert.equal(
    pkg.dsh?.bundle?.patch,
    './cordis.patch.yml',
    'package.json "dsh": {"bundle": {"patch": "./cordis.patch.yml"}}',
  )
  assert.match(tarText('cordis.patch.yml'), /name: dsh-project-mcp/)
  assert.equal(pkg.dsh?.client?.platform, 'web', 'the browser half is declared for the web client-module system')
  assert.equal(pkg.exports?.['./client'], './client/panel.js')
})

test('installed from the tarball, node_modules/.bin/dsh-mcp answers --version and schema', async (t) => {
  const consumer = makeTempDir('dsh-mcp-consumer-')
  consumer.write('package.json', '{ "name": "consumer", "private": true }\n')
  const env = { ...process.env, PATH: `${dirname(NODE22)}:${process.env.PATH ?? ''}` }
  const t0 = Date.now()
  execFileSync('npm', ['install', tarball.file, '--no-audit', '--no-fund', '--prefer-offline'], {
    cwd: consumer.path,
    env,
    stdio: 'pipe',
    timeout: 300_000,
  })
  t.diagnostic(`npm install <tgz>: ${Date.now() - t0} ms`)
  const link = consumer.join('node_modules', '.bin', 'dsh-mcp')
  assert.ok(lstatSync(link).isSymbolicLink(), '.bin/dsh-mcp is a symlink')
  assert.ok(!existsSync(consumer.join('node_modules', '@deepseek-ai')), 'no host package installed (optional peers)')
  const shipped = JSON.parse(
    readFileSync(consumer.join('node_modules', 'dsh-project-mcp', 'schema', 'dsh-mcp.schema.json'), 'utf8'),
  )

  // Node 22 first, then the inherited PATH minus any node_modules/.bin (the system node, >= 20).
  const systemPath = (process.env.PATH ?? '')
    .split(':')
    .filter((d) => d !== '' && !d.includes('node_modules'))
    .join(':')
  for (const path of [`${dirname(NODE22)}:/usr/bin:/bin`, systemPath]) {
    const runEnv = { HOME: consumer.path, PATH: path }
    const node = await runIsolated('node', ['--version'], { cwd: consumer.path, env: runEnv })
    const version = await runIsolated(link, ['--version'], { cwd: consumer.path, env: runEnv })
    assert.equal(version.code, 0, describeRun(version))
    assert.equal(version.stdout.trim(), tarball.version, `--version under node ${node.stdout.trim()}`)
    const schema = await runIsolated(link, ['schema'], { cwd: consumer.path, env: runEnv })
    assert.equal(schema.code, 0, describeRun(schema))
    assert.deepEqual(JSON.parse(schema.stdout), shipped, `schema under node ${node.stdout.trim()}`)
    t.diagnostic(`dsh-mcp --version / schema OK under node ${node.stdout.trim()}`)
  }
})
