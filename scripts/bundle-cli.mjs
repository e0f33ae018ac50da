// The shipped CLI: `src/cli/program.ts` bundled by esbuild into ONE CommonJS script,
// `<outdir>/cli.cjs`, that `bin/dsh-mcp.js` runs through `bin/load-bundle.js` (a `vm.Script` with a
// V8 code cache), and a smaller one, `<outdir>/list.cjs`, the same program for plain `list` only
// (`onlyList` below: no doctor engine, no writer), which the bin runs for `list` without `--check`.
// Contract:
// - `bundleCli(outdir)` writes `<outdir>/cli.cjs` (its `module.exports.runCli` runs the CLI). Every
//   command (the template `import()` of `commands/${name}.ts`) and every other lazy `import()` stays
//   lazy: esbuild turns each into an init function called on first import, so `--version` and `list`
//   never evaluate (and, with a code cache, never compile) doctor's MCP SDK. `outdir` must sit two
//   levels under the package root (`lib/cli-bundle/`): code that finds files with
//   `new URL('../launch/…', import.meta.url)` resolves them from the bundle as from `lib/cli/`
//   (`import.meta.url` is the bundle's own file URL).
// - Node builtins stay `require` calls, and host packages (`@deepseek-ai/*`, which the CLI must
//   never load) stay external, so a host import is visible to test/cli/read-imports.test.ts;
//   everything else is inlined.
// - Why one script: Node 20 keeps no code cache for ES modules, and Node 22's compile cache holds
//   only what is compiled before a module runs (its top level), so every lazily compiled function
//   of zod, yaml and commander was compiled again on every run; a script's code cache, made after a
//   run, holds them all (docs/benchmarks.md, row 6). One script also costs no ESM resolution and
//   instantiation, and no builtin's ES facade (which reads every lazy export of `fs`, `util`, …).
//   The bundle tree-shakes zod (namespace imports) and yaml (its ESM build; the CommonJS one that
//   Node resolves cannot be tree-shaken). Runs on Node 22 (the build's node); the output runs on 20.
// - The output is plain, unminified JavaScript, without source maps (the tarball ships none).
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const require = createRequire(import.meta.url)

/** The file name of the bundle inside `outdir`. */
export const BUNDLE_FILE = 'cli.cjs'
/** The plain `list` bundle (no `--check`): the bin runs it for `dsh-mcp list …` without `--check`. */
export const LIST_FILE = 'list.cjs'

// The script runs inside a CommonJS wrapper (`require`, `module`, `__filename`, …: bin/load-bundle.js);
// ES code that reads `import.meta.url` gets the bundle's own URL.
const BANNER = "const __dshMcpImportMetaUrl = require('node:url').pathToFileURL(__filename).href;"

/** `yaml` resolves (condition "node") to its CommonJS build; its ESM build is the same code, tree-shakeable. */
const yamlEsm = {
  name: 'yaml-esm',
  setup(build) {
    const esm = path.join(path.dirname(require.resolve('yaml/package.json')), 'browser', 'dist', 'index.js')
    build.onResolve({ filter: /^yaml$/ }, () => ({ path: esm }))
  },
}

/**
 * Commander requires `child_process` at load for executable subcommands, which this CLI never
 * declares: it gets the module on first use instead (a property read loads it), so a command that
 * spawns nothing never loads it (about 40 internal modules).
 */
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(build) {
    build.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      args.kind === 'require-call' && /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer)
        ? { path: 'node:child_process', namespace: 'lazy-builtin' }
        : undefined,
    )
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
      contents: `let m\nmodule.exports = new Proxy({}, { get: (_, key) => (m ??= require(${JSON.stringify(args.path)}))[key] })`,
      loader: 'js',
    }))
  },
}

/**
 * The bundle must be pure ASCII: bin/load-bundle.js reads it as latin1, which makes V8's one-byte
 * string at memory speed, where one non-ASCII character anywhere makes Node decode all 1.4 MB as
 * UTF-8 into a two-byte string (≈ 5× slower, and twice the memory). `charset: 'ascii'` escapes
 * strings, templates, regular expressions and identifiers; what is left is comment text esbuild
 * keeps (`…`, `—`), written as `\u{…}` here (a comment reads the same either way).
 */
function asciiOnly(file) {
  const text = readFileSync(file, 'utf8')
  const ascii = text.replace(/[^\x00-\x7f]/gu, (c) => `\\u{${c.codePointAt(0).toString(16)}}`)
  if (ascii !== text) writeFileSync(file, ascii)
}

/**
 * The plain `list` bundle: the same program (every command declared, `--help` alike), whose only
 * handler is `list`, and whose lazy imports of what plain `list` never runs — the doctor engine
 * (`--check`) and the locked writer — are modules that throw. About 40% of the full bundle: less to
 * read, hash and deserialize on the command run most.
 */
const onlyList = {
  name: 'only-list',
  setup(build) {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of program.ts's template import
    const template = 'await import(`./commands/${name}.ts`)'
    build.onLoad({ filter: /[\\/]src[\\/]cli[\\/]program\.ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8')
      if (!text.includes(template)) throw new Error(`${args.path}: the command import changed; update only-list`)
      const one = "(name === 'list' ? await import('./commands/list.ts') : await notInThisBundle(name))"
      const contents = `${text.replace(template, one)}
async function notInThisBundle(name: string): Promise<never> {
  throw new Error(\`internal: the \${name} command is not in the list bundle\`)
}
`
      return { contents, loader: 'ts' }
    })
    build.onResolve({ filter: /(doctor[\\/](index|diagnose)|files[\\/]write)\.ts$/ }, (args) =>
      args.kind === 'dynamic-import' ? { path: args.path, namespace: 'not-in-list' } : undefined,
    )
    build.onLoad({ filter: /.*/, namespace: 'not-in-list' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`internal: ${args.path} is not in the list bundle`)})`,
      loader: 'js',
    }))
  },
}

/** Bundle the CLI into `outdir` (emptied first): the full bundle and the plain `list` one. Returns the full one's metafile. */
export async function bundleCli(outdir) {
  const esbuild = await import('esbuild')
  rmSync(outdir, { recursive: true, force: true })
  const common = {
    absWorkingDir: root,
    entryPoints: [path.join(root, 'src', 'cli', 'program.ts')],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: ['@deepseek-ai/*', '@napi-rs/keyring'],
    banner: { js: BANNER },
    define: { 'import.meta.url': '__dshMcpImportMetaUrl' },
    charset: 'ascii',
    metafile: true,
    logLevel: 'warning',
  }
  const result = await esbuild.build({
    ...common,
    outfile: path.join(outdir, BUNDLE_FILE),
    plugins: [yamlEsm, lazyChildProcess],
  })
  await esbuild.build({
    ...common,
    outfile: path.join(outdir, LIST_FILE),
    plugins: [onlyList, yamlEsm, lazyChildProcess],
  })
  asciiOnly(path.join(outdir, BUNDLE_FILE))
  asciiOnly(path.join(outdir, LIST_FILE))
  return result.metafile
}
