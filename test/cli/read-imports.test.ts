// biome-ignore-all lint/suspicious/noTemplateCurlyInString: module text holds literal template imports
/**
 * The CLI runs from a plain global install: its static import graph —
 * including the lazy `import()` of every command — reaches no host package
 * (`@deepseek-ai/*`) and only runtime dependencies; and it runs on the
 * system's Node 20 from the built `lib/`.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { cleanupAll, makeProject, makeTempDir } from '../support/tmp.ts'
import { ensureBuilt, REPO, runCli } from './read-support.ts'

before(ensureBuilt)
after(cleanupAll)

const STATIC = /^[ \t]*(?:import|export)\s+(?:[\w$*{}\s,]+?\s*from\s*)?['"]([^'"\n]+)['"]/gm
const DYNAMIC = /\bimport\s*\(\s*(?:['"]([^'"\n]+)['"]|`([^`]*)`)|__rewriteRelativeImportExtension\(\s*(?:['"]([^'"\n]+)['"]|`([^`]*)`)/g

/** Every local file and bare specifier reachable from `entry`. A template import `./dir/${x}…` reaches every .js in dir. */
export function importGraph(entry: string): { files: Set<string>; bare: Set<string> } {
  const files = new Set<string>()
  const bare = new Set<string>()
  const queue = [resolve(entry)]
  while (queue.length > 0) {
    const file = queue.pop()!
    if (files.has(file)) continue
    files.add(file)
    const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')
    const found = [...[...text.matchAll(STATIC)].map((m) => ({ spec: m[1], template: undefined as string | undefined })), ...[...text.matchAll(DYNAMIC)].map((m) => ({ spec: m[1] ?? m[3], template: m[2] ?? m[4] }))]
    for (const { spec, template } of found) {
      if (spec !== undefined) {
        if (spec.startsWith('.')) queue.push(resolve(dirname(file), spec.replace(/\.ts$/, '.js')))
        else bare.add(spec)
      } else if (template !== undefined) {
        const prefix = template.split('${')[0]!
        if (!prefix.startsWith('.')) throw new Error(`${file}: dynamic import of a non-relative template: ${template}`)
        const dir = resolve(dirname(file), prefix.slice(0, prefix.lastIndexOf('/') + 1))
        for (const f of readdirSync(dir)) if (f.endsWith('.js')) queue.push(join(dir, f))
      }
    }
  }
  return { files, bare }
}

function packageName(spec: string): string {
  const parts = spec.split('/')
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!
}

describe('the CLI import graph', () => {
  test('the walker sees static, lazy and template imports (and would report a host package)', () => {
    const d = makeTempDir()
    d.write('main.js', "import a from './a.js'\nconst x = await import(`./cmds/${name}.js`)\n")
    d.write('a.js', "export * from 'yaml'\n")
    d.write('cmds/one.js', "const m = await import('@deepseek-ai/dsh-mcp-client')\n")
    d.write('cmds/two.js', "import { z } from 'zod'\n")
    const g = importGraph(d.join('main.js'))
    assert.equal(g.files.size, 4)
    assert.deepEqual([...g.bare].sort(), ['@deepseek-ai/dsh-mcp-client', 'yaml', 'zod'])
  })

  test('lib/cli/program.js reaches every command and no @deepseek-ai package; bare imports are runtime dependencies', () => {
    const { files, bare } = importGraph(join(REPO, 'lib/cli/program.js'))
    const commands = readdirSync(join(REPO, 'lib/cli/commands')).filter((f) => f.endsWith('.js'))
    for (const c of ['list.js', 'get.js', 'validate.js', 'trust.js', 'untrust.js', 'schema.js']) assert.ok(commands.includes(c), c)
    for (const c of commands) assert.ok(files.has(join(REPO, 'lib/cli/commands', c)), c)
    for (const f of files) assert.ok(existsSync(f), `missing module ${f}`)
    const host = [...bare].filter((s) => s.startsWith('@deepseek-ai/'))
    assert.deepEqual(host, [], `the CLI imports host packages: ${host.join(', ')}`)
    const deps = Object.keys(JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).dependencies)
    const builtins = new Set(builtinModules)
    for (const spec of bare) {
      if (spec.startsWith('node:') || builtins.has(spec)) continue
      assert.ok(deps.includes(packageName(spec)), `${spec} is not a runtime dependency`)
    }
  })
})

describe('Node 20', () => {
  const cleanEnv = ['-i', 'PATH=/usr/local/bin:/usr/bin:/bin']
  const node20 = () => execFileSync('/usr/bin/env', [...cleanEnv, 'sh', '-c', 'command -v node'], { encoding: 'utf8' }).trim()

  test('the system node is Node 20, not the Node 22 of node_modules', () => {
    const bin = node20()
    assert.notEqual(resolve(bin), resolve(process.execPath))
    assert.match(execFileSync(bin, ['--version'], { encoding: 'utf8' }), /^v20\./)
  })

  test('dsh-mcp --version works under it', () => {
    const version = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).version
    const out = execFileSync('/usr/bin/env', [...cleanEnv, 'node', 'bin/dsh-mcp.js', '--version'], { cwd: REPO, encoding: 'utf8' })
    assert.equal(out.trim(), version)
  })

  test('list, validate and trust work under it', async () => {
    const project = makeProject({ '.dsh/mcp.yml': 'servers:\n  a: {command: node, args: [a.js]}\n' })
    const home = makeTempDir()
    const o = { cwd: project.path, dshHome: home.join('.dsh'), node: node20() }
    const list = await runCli(['list', '--json'], o)
    assert.equal(list.code, 0, list.stderr)
    assert.equal(JSON.parse(list.stdout)[0].state, 'untrusted')
    assert.deepEqual(await runCli(['validate'], o), { code: 0, stdout: '', stderr: '' })
    const trust = await runCli(['trust', '--all', '--yes'], o)
    assert.equal(trust.code, 0, trust.stderr)
    assert.equal(JSON.parse((await runCli(['list', '--json'], o)).stdout)[0].state, 'active')
  })
})
