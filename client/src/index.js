/**
 * dsh-project-mcp, browser half: the entry that scripts/bundle-client.mjs
 * bundles into the shipped `client/panel.js` (`exports["./client"]`, declared
 * by package.json `dsh.client`), loaded by the rc.8 client-module system of
 * `dsh web` like the upstream `dsh-client-ui-*` packages.
 *
 * Contract: loading adds the stylesheet (styles.js); `inject` names the host
 * services it needs; `apply(ctx)` registers the `project-mcp` locale
 * (strings.js) and two read-only slot entries (slots.js):
 * `sidebar.footer.action` "project-mcp-panel" and
 * `conversation.session.header.actions` "project-mcp-chip". A row's state
 * word and its tone come from the host (src/plan/states.ts, the one
 * vocabulary), never decided here. Nothing here starts, wakes or trusts a
 * server.
 *
 * Modules: react.js (the host's React), styles.js (CSS), strings.js (en/zh),
 * stream.js (the events route), view.js (pure reads of a view), rows.js
 * (project block, rows, fix line), slots.js (panel and chip).
 */
import { ServersChip, ServersPanel } from './slots.js'
import { en, NS, zh } from './strings.js'
import { injectStyles } from './styles.js'

injectStyles()

export const inject = ['sessions', 'slots', 'locale']

export function apply(ctx) {
  ctx.effect(() => ctx.locale.register(NS, { zh, en }), 'project-mcp: dictionaries')
  ctx.slots.inject('sidebar.footer.action', () =>
    ctx.slots.register({ name: 'sidebar.footer.action', id: 'project-mcp-panel', order: 50, locale: NS }, ServersPanel),
  )
  ctx.slots.inject('conversation.session.header.actions', () =>
    ctx.slots.register(
      { name: 'conversation.session.header.actions', id: 'project-mcp-chip', order: 30, locale: NS },
      ServersChip,
    ),
  )
}
