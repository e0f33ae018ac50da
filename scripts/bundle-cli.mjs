// The shipped CLI: `src/cli/program.ts` bundled by esbuild into one directory of ES modules that
// `bin/dsh-mcp.js` loads. Contract:
// - `bundleCli(outdir)` writes `<outdir>/program.js` (exports `runCli`) plus its chunks, all flat in
//   `outdir`: every command (the template `import()` of `commands/${name}.ts`) and every other lazy
//   `import()` stays a separate chunk loaded on demand, so `--version` and `list` never parse doctor's
//   MCP SDK. `outdir` must sit two levels under the package root (`lib/cli-bundle/`): code that finds
//   `schema/` with `new URL('../../schema/…', import.meta.url)` resolves it from a chunk as from `lib/cli/`.
// - Node builtins and host packages (`@deepseek-ai/*`, which the CLI must never load) stay imports,
//   so a host import is visible to test/cli/read-imports.test.ts; everything else is inlined.
// - Why: one file per dependency module costs ESM resolution and instantiation (~130 modules for
//   `list`), and the bundle tree-shakes zod (namespace imports) and yaml (its ESM build; the CommonJS
//   one that Node resolves cannot be tree-shaken). Runs on Node 22 (the build's node).
// - The output is plain, unminified JavaScript, without source maps (the tarball ships none).
import { rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const require = createRequire(import.meta.url)

// Bundled CommonJS dependencies call `require('fs')` and may read `__filename`: give every chunk a real `require`, `__filename` and `__dirname` (its own).
const BANNER = [
  "import { createRequire as __dshMcpCreateRequire } from 'node:module'",
  "import { fileURLToPath as __dshMcpFileURLToPath } from 'node:url'",
  'const require = __dshMcpCreateRequire(import.meta.url)',
  'const __filename = __dshMcpFileURLToPath(import.meta.url)',
  "const __dirname = __dshMcpFileURLToPath(new URL('.', import.meta.url))",
].join('\n')

/** `yaml` resolves (condition "node") to its CommonJS build; its ESM build is the same code, tree-shakeable. */
const yamlEsm = {
  name: 'yaml-esm',
  setup(build) {
    const esm = path.join(path.dirname(require.resolve('yaml/package.json')), 'browser', 'dist', 'index.js')
    build.onResolve({ filter: /^yaml$/ }, () => ({ path: esm }))
  },
}

/** Bundle the CLI into `outdir` (emptied first). Returns esbuild's metafile. */
export async function bundleCli(outdir) {
  const esbuild = await import('esbuild')
  rmSync(outdir, { recursive: true, force: true })
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [path.join(root, 'src', 'cli', 'program.ts')],
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['@deepseek-ai/*'],
    banner: { js: BANNER },
    plugins: [yamlEsm],
    metafile: true,
    logLevel: 'warning',
  })
  return result.metafile
}
