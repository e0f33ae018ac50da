// biome-ignore-all lint/suspicious/noTemplateCurlyInString: module text holds literal template imports
/**
 * The CLI runs from a plain global install: its import graph — including the
 * lazy `import()` of every command — reaches no host package
 * (`@deepseek-ai/*`) and only runtime dependencies; and it runs on the
 * system's Node 20 from the built `lib/`. Both graphs are walked: the tsc
 * output (`lib/cli/program.js`, what the bundle is built from, where every
 * dependency is still a bare import) and what `bin/dsh-mcp.js` really runs
 * (`lib/cli-bundle/cli.cjs`, one script where dependencies are inlined, so a
 * host package would show as a `require` esbuild kept external or as an
 * inlined `node_modules/@deepseek-ai/` module).
 */
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { after, describe, test } from 'node:test'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'
import { REPO } from '../support/cli.ts'
after(cleanupAll)

const STATIC = /^[ \t]*(?:import|export)\s+(?:[\w$*{}\s,]+?\s*from\s*)?['"]([^'"\n]+)['"]/gm
const DYNAMIC =
  /\bimport\s*\(\s*(?:['"]([^'"\n]+)['"]|`([^`]*)`)|__rewriteRelativeImportExtension\(\s*(?:['"]([^'"\n]+)['"]|`([^`]*)`)/g

/**
 * Every local file and bare specifier reachable from `entry`. A template import `./dir/${x}…` reaches every .js in dir.
 * `dynamic: false` follows static imports only: what loading `entry` itself costs.
 */
export function importGraph(
  entry: string,
  opts: { dynamic?: boolean } = {},
): { files: Set<string>; bare: Set<string> } {
  const files = new Set<string>()
  const bare = new Set<string>()
  const queue = [resolve(entry)]
  while (queue.length > 0) {
    const file = queue.pop()!
    if (files.has(file)) continue
    files.add(file)
    const text = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '')
    const found = [
      ...[...text.matchAll(STATIC)].map((m) => ({ spec: m[1], template: undefined as string | undefined })),
      ...(opts.dynamic === false
        ? []
        : [...text.matchAll(DYNAMIC)].map((m) => ({ spec: m[1] ?? m[3], template: m[2] ?? m[4] }))),
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

/** Specifiers of the `require("…")` calls in `text`, not those inside a string (ajv keeps `require("ajv/dist/runtime/…")` as code text it can emit). */
function requiresOf(text: string): string[] {
  return [...text.matchAll(/(?<![`'"\w.])require\(\s*["']([^"'\n]+)["']\s*\)/g)].map((m) => m[1]!)
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
    for (const c of ['list.js', 'get.js', 'validate.js', 'trust.js', 'untrust.js', 'schema.js'])
      assert.ok(commands.includes(c), c)
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

  test('plain list runs lib/cli-bundle/list.cjs: builtins only, ASCII, the list command alone, no doctor engine, no writer', () => {
    const bin = readFileSync(join(REPO, 'bin/dsh-mcp.js'), 'utf8')
    assert.match(bin, /'cli-bundle', 'list\.cjs'\)/, 'the bin runs list.cjs')
    const text = readFileSync(join(REPO, 'lib/cli-bundle/list.cjs'), 'utf8')
    assert.ok(/^[\x00-\x7f]*$/.test(text), 'the list bundle is ASCII')
    const builtins = new Set(builtinModules)
    const notBuiltin = [...new Set(requiresOf(text))].filter((s) => !s.startsWith('node:') && !builtins.has(s))
    assert.deepEqual(notBuiltin, [], 'the list bundle requires packages instead of inlining them')
    assert.ok(text.includes('\n// src/cli/commands/list.ts\n'), 'the list command is bundled')
    assert.ok(!text.includes('\n// src/cli/commands/get.ts\n'), 'another command is bundled')
    for (const heavy of ['@modelcontextprotocol', 'proper-lockfile', 'src/doctor/probe.ts'])
      assert.ok(!text.includes(`// node_modules/${heavy}`) && !text.includes(`// ${heavy}`), `${heavy} is bundled`)
  })

  test('program.js statically loads only commander (--version, --help); list and get never load the writer libraries', () => {
    const program = importGraph(join(REPO, 'lib/cli/program.js'), { dynamic: false })
    const builtins = new Set(builtinModules)
    assert.deepEqual(
      [...program.bare].filter((s) => !s.startsWith('node:') && !builtins.has(s)),
      ['commander'],
    )
    for (const command of ['list', 'get']) {
      const { bare } = importGraph(join(REPO, `lib/cli/commands/${command}.js`), { dynamic: false })
      for (const writer of ['proper-lockfile']) assert.ok(!bare.has(writer), `${command} loads ${writer}`)
    }
  })

  test('bin/dsh-mcp.js runs lib/cli-bundle/cli.cjs: a lazy module per command, node builtins only, nothing of a host package inlined', () => {
    const bundleFile = join(REPO, 'lib/cli-bundle/cli.cjs')
    const builtins = new Set(builtinModules)
    const isBuiltin = (s: string) => s.startsWith('node:') || builtins.has(s)
    // The bin is CommonJS (bin/package.json): its local requires are the loader and package.json, the rest builtins.
    assert.equal(JSON.parse(readFileSync(join(REPO, 'bin/package.json'), 'utf8')).type, 'commonjs')
    const bin = readFileSync(join(REPO, 'bin/dsh-mcp.js'), 'utf8')
    assert.deepEqual(
      requiresOf(bin).filter((s) => !isBuiltin(s)),
      ['./load-bundle.js', '../package.json'],
    )
    assert.deepEqual(
      requiresOf(readFileSync(join(REPO, 'bin/load-bundle.js'), 'utf8')).filter((s) => !isBuiltin(s)),
      [],
    )
    assert.match(
      bin,
      /path\.join\(__dirname, '\.\.', 'lib', 'cli-bundle', 'cli\.cjs'\)/,
      'the bin runs lib/cli-bundle/cli.cjs',
    )
    assert.deepEqual(
      readdirSync(join(REPO, 'lib/cli-bundle')).sort(),
      ['cli.cjs', 'list.cjs'],
      'the bundle is one script (and the plain list one)',
    )
    const text = readFileSync(bundleFile, 'utf8')
    // bin/load-bundle.js reads it as latin1 (a one-byte string, no UTF-8 decode): that is only right for ASCII.
    assert.ok(/^[\x00-\x7f]*$/.test(text), 'the bundle is ASCII')
    const notBuiltin = [...new Set(requiresOf(text))].filter((s) => !isBuiltin(s))
    assert.deepEqual(notBuiltin, [], 'the bundle requires packages instead of inlining them')
    assert.ok(!text.includes('node_modules/@deepseek-ai/'), 'host package code inlined in the bundle')
    assert.doesNotMatch(
      text,
      /(?<![`'"\w.])(?:require|import)\(\s*["']@deepseek-ai\//,
      'the bundle loads a host package',
    )
    // Each command is its own module, initialized only when `import()`ed (esbuild's lazy `init_…`).
    const commands = readdirSync(join(REPO, 'src/cli/commands'))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => f.slice(0, -'.ts'.length))
    for (const c of ['list', 'get', 'validate', 'trust', 'untrust', 'schema']) assert.ok(commands.includes(c), c)
    for (const c of commands) {
      assert.ok(text.includes(`\n// src/cli/commands/${c}.ts\n`), `the command ${c} is bundled`)
      assert.match(
        text,
        new RegExp(`"\\./commands/${c}\\.ts": \\(\\) => Promise\\.resolve\\(\\)\\.then\\(\\(\\) => \\(init_`),
        `the command ${c} is loaded lazily`,
      )
    }
  })
})
