/**
 * `node:crypto`, loaded on first use: a plain `dsh-mcp list` of servers that need no trust
 * fingerprint (the user's own) never pays for loading it (about 15 internal modules of Node).
 *
 * Contract: `nodeCrypto()` is the `node:crypto` module, the same object every call. In the CLI
 * bundle (CommonJS: bin/load-bundle.js hands it a `require` for builtins) it is required; in ES
 * modules (the host, the tests) it comes from `process.getBuiltinModule` (Node ≥ 20.16 and 22).
 *
 * @module
 */
import type * as Crypto from 'node:crypto'

let loaded: typeof Crypto | undefined

export function nodeCrypto(): typeof Crypto {
  loaded ??=
    typeof require === 'function'
      ? (require('node:crypto') as typeof Crypto)
      : (process.getBuiltinModule('node:crypto') as typeof Crypto)
  return loaded
}
