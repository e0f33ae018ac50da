// biome-ignore-all lint/suspicious/noTemplateCurlyInString: module text holds literal template imports
/**
 * The CLI runs from a plain global install: its import graph — including the
 * lazy `import()` of every command — reaches no host package
 * (`@deepseek-ai/*`) and only runtime dependencies; and it runs on the
 * system's Node 20 from the built `lib/`. Both graphs are walked: the tsc
 * output (`lib/cli/program.js`, what the bundle is built from, where every
 * dependency is still a bare import) and what `bin/dsh-mcp.js` really loads
 * (`lib/cli-bundle/`, where dependencies are inlined, so a host package
 * would show as an import esbuild kept external or as an inlined
 * `node_modules/@deepseek-ai/` module).
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { basename, dirname, join, resolve } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { cleanupAll, makeProject, makeTempDir } from '../support/tmp.ts'
import { ensureBuilt, REPO, runCli } from '../support/cli.ts'

before(ensureBuilt)
after(cleanupAll)

const STATIC = /^[ \t]*(?:import|export)\s+(?:[\w$*{}\s,]+?\s*from\s*)?['"]([^'"\n]+)['"]/gm
const DYNAMIC = /\bimport\s*\(\s*(?:['"]([^'"\n]+)['"]|`([^`]*)`)|__rewriteRelativeImportExtension\(\s*(?:['"]([^'"\n]+)['"]|`([^`]*)`)/g

/**
 * Every local file and bare specifier reachable from `entry`. A template import `./dir/${x}…` reaches every .js in dir.
 * `dynamic: false` follows static imports only: what loading `entry` itself costs.
 */
export function importGraph(entry: string, opts: { dynamic?: boolean } = {}): { files: Set<string>; bare: Set<string> } {
  const files = new Set<string>()
  const bare = new Set<string>()
  const queue = [resolve(entry)]
  while (queue.length > 0) {
    const file = queue.pop()!
    if (files.has(file)) continue
    files.add(file)
    const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')
    const found = [
      ...[...text.matchAll(STATIC)].map((m) => ({ spec: m[1], template: undefined as string | undefined })),
      ...(opts.dynamic === false ? [] : [...text.matchAll(DYNAMIC)].map((m) => ({ spec: m[1] ?? m[3], template: m[2] ?? m[4] }))),
    ]
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

  test('program.js statically loads only commander (--version, --help); list and get never load the writer libraries', () => {
    const program = importGraph(join(REPO, 'lib/cli/program.js'), { dynamic: false })
    const builtins = new Set(builtinModules)
    assert.deepEqual([...program.bare].filter((s) => !s.startsWith('node:') && !builtins.has(s)), ['commander'])
    for (const command of ['list', 'get']) {
      const { bare } = importGraph(join(REPO, `lib/cli/commands/${command}.js`), { dynamic: false })
      for (const writer of ['proper-lockfile']) assert.ok(!bare.has(writer), `${command} loads ${writer}`)
    }
  })

  test('bin/dsh-mcp.js loads lib/cli-bundle/: every chunk and a chunk per command, node builtins only, nothing of a host package inlined', () => {
    const bundle = join(REPO, 'lib/cli-bundle')
    const { files, bare } = importGraph(join(REPO, 'bin/dsh-mcp.js'))
    assert.ok(files.has(join(bundle, 'program.js')), 'the bin loads lib/cli-bundle/program.js')
    for (const f of files) assert.ok(existsSync(f), `missing module ${f}`)
    // Every emitted chunk is reachable from the entry, so the walk saw every import esbuild wrote.
    const chunks = readdirSync(bundle).filter((f) => f.endsWith('.js'))
    const unreached = chunks.filter((c) => !files.has(join(bundle, c)))
    assert.deepEqual(unreached, [], 'chunks the walk did not reach')
    const names = new Set([...files].map((f) => basename(f)))
    const commands = readdirSync(join(REPO, 'src/cli/commands')).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -'.ts'.length))
    for (const c of ['list', 'get', 'validate', 'trust', 'untrust', 'schema']) assert.ok(commands.includes(c), c)
    for (const c of commands) assert.ok([...names].some((n) => new RegExp(`^${c}-[A-Z0-9]{8}\\.js$`).test(n)), `no chunk for the command ${c}`)
    const builtins = new Set(builtinModules)
    const notBuiltin = [...bare].filter((s) => !s.startsWith('node:') && !builtins.has(s))
    assert.deepEqual(notBuiltin, [], 'the bundle imports packages instead of inlining them')
    const inlined = chunks.filter((c) => readFileSync(join(bundle, c), 'utf8').includes('node_modules/@deepseek-ai/'))
    assert.deepEqual(inlined, [], 'chunks with host package code inlined')
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
