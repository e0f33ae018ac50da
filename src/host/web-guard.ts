/**
 * Who may read the `dsh web` route (web.ts), and which project a `cwd` query names.
 *
 * Contract:
 * - `trustedRequest(headers, boundHost)`: the browser-trust fence. rc.8's web
 *   server (`dsh-host-webserver`) offers no session or auth check, and the
 *   fence its `/api` bridge uses (`dsh-client-connection`) is not exported, so
 *   this is the same rule pinned to loopback, as that bridge pins its
 *   privileged methods: the `Host` header must name a loopback host
 *   (`localhost`, `127.0.0.0/8`, `[::1]`) or the literal address the server is
 *   bound to (never a name: DNS rebinding needs one); a `Sec-Fetch-Site` other
 *   than `same-origin`/`none` and an `Origin` other than the request's own
 *   (`http://` + its `Host`) are refused. No header value is ever echoed.
 * - `normalCwd(cwd)`, `matchProject(cwd, roots)`: the known project whose
 *   root is `cwd` or holds it, by string only — the query is normalised
 *   (`.`/`..`, repeated and trailing slashes) and never resolved on disk, so
 *   `/proc/self/fd/N`, `/proc/<pid>/cwd` and links name no project. A `cwd` that is not an
 *   absolute path names none; one longer than {@link MAX_CWD} characters or
 *   holding a NUL is `invalid` (answered 400).
 *
 * @module
 */
import type { IncomingHttpHeaders } from 'node:http'
import { posix } from 'node:path'

/** The longest `cwd` query read (Linux's PATH_MAX). */
export const MAX_CWD = 4096

function one(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name]
  return typeof v === 'string' ? v : undefined
}

/** Whether a WHATWG-normalised hostname is a loopback name. */
export function isLoopbackHostname(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true
  const parts = hostname.split('.')
  return parts.length === 4 && parts[0] === '127' && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)
}

function authority(value: string): URL | undefined {
  if (value.length > 300 || /[\s/?#@\\]/.test(value)) return undefined
  try {
    return new URL(`http://${value}`)
  } catch {
    return undefined
  }
}

/** The fence: our own host, and no other site's page behind the request. */
export function trustedRequest(headers: IncomingHttpHeaders, boundHost?: string): boolean {
  const host = one(headers, 'host')
  if (host === undefined) return false
  const url = authority(host)
  if (!url) return false
  const bound = boundHost && boundHost !== '0.0.0.0' && boundHost !== '::' ? authority(boundHost)?.hostname : undefined
  if (!isLoopbackHostname(url.hostname) && url.hostname !== bound) return false
  const site = one(headers, 'sec-fetch-site')
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false
  const origin = one(headers, 'origin')
  if (origin === undefined) return true
  try {
    const o = new URL(origin)
    return o.protocol === 'http:' && o.host === url.host
  } catch {
    return false
  }
}

/** A `cwd` query normalised as a string; null when not absolute, `invalid` when too long or holding a NUL. */
export function normalCwd(cwd: string): string | null | 'invalid' {
  if (cwd.length > MAX_CWD || cwd.includes('\0')) return 'invalid'
  if (!cwd.startsWith('/')) return null
  const n = posix.normalize(cwd)
  return n.length > 1 && n.endsWith('/') ? n.slice(0, -1) : n
}

/** The known root that is `cwd` or holds it (the longest such), by string; null when none. */
export function matchProject(cwd: string, roots: Iterable<string>): string | null {
  let best: string | null = null
  for (const root of roots) {
    const inside = cwd === root || cwd.startsWith(root === '/' ? '/' : `${root}/`)
    if (inside && (best === null || root.length > best.length)) best = root
  }
  return best
}
