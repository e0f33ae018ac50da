/**
 * The OS keychain through `@napi-rs/keyring`: macOS Keychain, Windows
 * Credential Manager, and on Linux the Secret Service (D-Bus; pinned, so the
 * library never falls back to the kernel keyring, which forgets on logout).
 *
 * Contract: one entry per secret, service `dsh-mcp`, account
 * `<scope key>/<NAME>` (store.ts `scopeKey`). The native module is loaded on
 * first use (a plain `require`: the CLI bundle keeps it external), so a
 * command that touches no secret never loads it. Every call is synchronous;
 * a keychain that does not answer (no D-Bus session, no Secret Service, a
 * module that will not load) throws a `KeychainError` whose message says so
 * and carries no value. `probeKeychain()` answers whether a keychain service
 * answers here (reading one probe entry, never writing).
 *
 * @module
 */
import type * as NodeModule from 'node:module'

export const KEYCHAIN_SERVICE = 'dsh-mcp'

export class KeychainError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'KeychainError'
  }
}

interface NativeEntry {
  getPassword(): string | null | undefined
  setPassword(value: string): void
  deleteCredential(): boolean
}
interface Native {
  Entry: new (service: string, account: string, options?: { linux?: { store?: string } }) => NativeEntry
}

/** `node:module`, on first use only: loading it loads Node's ES loader, which a `list` that reads no keychain never needs. */
function moduleApi(): typeof NodeModule {
  return (process.getBuiltinModule?.('node:module') ??
    (typeof require === 'function' ? require('node:module') : undefined)) as unknown as typeof NodeModule
}

let native: Native | undefined
function load(): Native {
  if (native) return native
  try {
    native = moduleApi().createRequire(import.meta.url)('@napi-rs/keyring') as Native
  } catch (err) {
    throw new KeychainError(`the keychain library did not load (${(err as Error).message.split('\n')[0]})`)
  }
  return native
}

/** One line from the library's error, for "the keychain did not answer (…)". */
function why(err: unknown): string {
  return String((err as Error)?.message ?? err)
    .split('\n')[0]!
    .slice(0, 200)
}

function entry(account: string): NativeEntry {
  const { Entry } = load()
  try {
    return new Entry(KEYCHAIN_SERVICE, account, { linux: { store: 'secret-service' } })
  } catch (err) {
    throw new KeychainError(`the keychain did not answer (${why(err)})`)
  }
}

function call<T>(account: string, f: (e: NativeEntry) => T): T {
  const e = entry(account)
  try {
    return f(e)
  } catch (err) {
    throw new KeychainError(`the keychain did not answer (${why(err)})`)
  }
}

export const keychain = {
  /** The value, or undefined when the keychain holds none for `account`. Throws `KeychainError`. */
  get(account: string): string | undefined {
    return call(account, (e) => e.getPassword()) ?? undefined
  },
  set(account: string, value: string): void {
    call(account, (e) => e.setPassword(value))
  },
  /** Whether an entry was there to delete. */
  delete(account: string): boolean {
    return call(account, (e) => e.deleteCredential())
  },
}

/** Whether a keychain service answers here: `{ ok: true }` or why not (no value, no write). */
export function probeKeychain(): { ok: true } | { ok: false; why: string } {
  try {
    keychain.get('probe/availability')
    return { ok: true }
  } catch (err) {
    return { ok: false, why: (err as Error).message }
  }
}
