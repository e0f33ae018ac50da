/**
 * The browser half as the host loads it: client/src/ bundled by
 * scripts/bundle-client.mjs (what `npm run build` writes to client/panel.js)
 * into a temp file and run as the rc.8 module loader runs it — one
 * `window.__ModuleLoader__.load({ id, factory })` call whose factory gets the
 * loader's `require`. No browser: test/web/panel.test.ts renders it for real.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, test } from 'node:test'
import { runInNewContext } from 'node:vm'
import { cleanupAll, makeTempDir } from '../support/tmp.ts'

after(cleanupAll)

interface Loaded {
  id: string
  exports: { inject?: unknown; apply?: (ctx: unknown) => void } & Record<string, unknown>
  required: string[]
}

async function load(): Promise<{ loaded: Loaded[]; text: string }> {
  const script = '../../scripts/bundle-client.mjs' // a build script (plain .mjs, no types)
  const { bundleClient } = (await import(script)) as {
    bundleClient(outfile: string): Promise<void>
  }
  const file = makeTempDir('dsh-mcp-client-').join('panel.js')
  await bundleClient(file)
  const text = readFileSync(file, 'utf8')
  const loaded: Loaded[] = []
  const react = { createElement: () => null, useState: (v: unknown) => [v, () => {}], useEffect: () => {} }
  const window = {
    __ModuleLoader__: {
      load({ id, factory }: { id: string; factory: (require: (name: string) => unknown) => Loaded['exports'] }) {
        const required: string[] = []
        const exports = factory((name) => {
          required.push(name)
          if (name !== 'react') throw new Error(`unexpected require(${name})`)
          return react
        })
        loaded.push({ id, exports, required })
      },
    },
  }
  runInNewContext(text, { window })
  return { loaded, text }
}

test('the bundle is one loader call: id dsh-project-mcp, plain exports inject and apply, only react required', async () => {
  const { loaded, text } = await load()
  assert.match(text, /^\/\*\*\n \* dsh-project-mcp, browser half/)
  assert.doesNotMatch(text, /\bimport\b.*\bfrom\b|\bexport (const|function)\b/, 'no ES module syntax left')
  assert.equal(loaded.length, 1)
  const [{ id, exports, required }] = loaded as [Loaded]
  assert.equal(id, 'dsh-project-mcp')
  assert.deepEqual(required, ['react'])
  assert.deepEqual(Object.keys(exports).sort(), ['apply', 'inject'])
  // A plain object of the page's realm (not esbuild's getters behind an `__esModule` marker).
  assert.equal(Object.getPrototypeOf(exports)?.constructor?.name, 'Object')
  assert.equal('__esModule' in exports, false)
  assert.equal(Object.getOwnPropertyDescriptor(exports, 'apply')?.get, undefined)
  assert.deepEqual([...(exports.inject as string[])], ['sessions', 'slots', 'locale'])
})

test('apply registers the project-mcp locale (the same keys in en and zh) and the two slots', async () => {
  const { loaded } = await load()
  const calls: unknown[] = []
  let dictionaries: Record<string, Record<string, string>> = {}
  const ctx = {
    effect: (fn: () => unknown, label: string) => {
      calls.push(['effect', label])
      fn()
    },
    locale: {
      register: (ns: string, dicts: Record<string, Record<string, string>>) => {
        calls.push(['locale', ns])
        dictionaries = dicts
      },
    },
    slots: {
      inject: (name: string, fn: () => unknown) => {
        calls.push(['inject', name])
        fn()
      },
      register: (slot: { name: string; id: string; order: number; locale: string }, component: unknown) =>
        calls.push(['register', slot, typeof component]),
    },
  }
  loaded[0]!.exports.apply!(ctx)
  assert.deepEqual(JSON.parse(JSON.stringify(calls)), [
    ['effect', 'project-mcp: dictionaries'],
    ['locale', 'project-mcp'],
    ['inject', 'sidebar.footer.action'],
    [
      'register',
      { name: 'sidebar.footer.action', id: 'project-mcp-panel', order: 50, locale: 'project-mcp' },
      'function',
    ],
    ['inject', 'conversation.session.header.actions'],
    [
      'register',
      { name: 'conversation.session.header.actions', id: 'project-mcp-chip', order: 30, locale: 'project-mcp' },
      'function',
    ],
  ])
  assert.deepEqual(Object.keys(dictionaries.zh!).sort(), Object.keys(dictionaries.en!).sort())
  assert.equal(dictionaries.en!['state.mounted'], 'running')
})
