/**
 * dsh-project-mcp, browser half (`exports["./client"]`, declared by
 * package.json `dsh.client`): loaded by the rc.8 client-module system of
 * `dsh web` like the upstream `dsh-client-ui-*` packages.
 *
 * Contract: registers the `project-mcp` locale (English, Chinese) and two
 * slot entries, both read-only:
 * - `sidebar.footer.action` "project-mcp-panel": a footer button (count of
 *   servers that do not run) opening a panel that lists, for the current
 *   session's project first and then every known project, each server's
 *   state, lifecycle, tool count, last error (redacted by the host) and,
 *   when it does not run, why and the exact command to run (copy button);
 *   a row's state word and its tone come from the host (src/plan/states.ts,
 *   the one vocabulary), never decided here;
 * - `conversation.session.header.actions` "project-mcp-chip": nothing when
 *   every server of the session's project runs; else a warning dot with the
 *   count, its tooltip naming which and why.
 * Data comes from the host route `/api/dsh-project-mcp/events?cwd=<cwd>`
 * (server-sent events: pushed on every change, so rows update without a
 * reload); one stream per cwd, closed when nothing shows it. Colours are the
 * host's theme tokens (`--dsw-*`), so light and dark both follow the theme.
 * Nothing here starts, wakes or trusts a server.
 */
window.__ModuleLoader__.load({
  id: 'dsh-project-mcp',
  factory: (require) => {
    const module = { exports: {} }
    const React = require('react')
    const h = React.createElement
    const NS = 'project-mcp'

    const css = [
      '.dpm-foot{position:relative;display:flex}',
      '.dpm-trigger{display:inline-flex;align-items:center;gap:6px;min-height:28px;padding:4px 8px;border:0;border-radius:8px;background:transparent;color:var(--dsw-alias-label-secondary);font-size:13px;cursor:pointer}',
      '.dpm-trigger:hover,.dpm-trigger:focus-visible{background:var(--dsw-alias-interactive-bg-hover);color:var(--dsw-alias-label-primary)}',
      '.dpm-dot{display:inline-block;flex:none;width:7px;height:7px;border-radius:50%;background:var(--dsw-alias-state-success-primary)}',
      '.dpm-dot[data-tone=warn]{background:var(--dsw-alias-state-warn-primary)}',
      '.dpm-dot[data-tone=error]{background:var(--dsw-alias-state-error-primary)}',
      '.dpm-dot[data-tone=idle]{background:var(--dsw-alias-label-caption)}',
      '.dpm-panel{position:fixed;z-index:30;left:12px;bottom:56px;width:460px;max-width:calc(100vw - 24px);max-height:70vh;overflow:auto;box-sizing:border-box;padding:12px;border:1px solid var(--dsw-alias-border-l2);border-radius:12px;background:var(--dsw-specific-menu);box-shadow:var(--dsw-shadow-lv3);color:var(--dsw-alias-label-primary);font-size:13px;line-height:18px}',
      '.dpm-title{margin:0 0 8px;font-size:14px;font-weight:600}',
      '.dpm-project{margin:10px 0 4px;color:var(--dsw-alias-label-tertiary);font-size:12px;word-break:break-all}',
      '.dpm-project b{color:var(--dsw-alias-label-secondary);font-weight:500}',
      '.dpm-rows{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:2px}',
      '.dpm-row{padding:6px 8px;border-radius:8px}',
      '.dpm-row:hover{background:var(--dsw-alias-interactive-bg-hover)}',
      '.dpm-head{display:flex;align-items:center;gap:8px}',
      '.dpm-name{flex:1;min-width:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;font-weight:500}',
      '.dpm-meta{flex:none;color:var(--dsw-alias-label-tertiary);font-size:12px}',
      '.dpm-why{margin-top:4px;color:var(--dsw-alias-label-secondary);font-size:12px}',
      '.dpm-error{margin-top:4px;color:var(--dsw-alias-state-error-primary);font-size:12px;word-break:break-word}',
      '.dpm-fix{display:flex;align-items:center;gap:6px;margin-top:4px}',
      '.dpm-fix code{flex:1;min-width:0;overflow:auto;white-space:nowrap;padding:3px 6px;border-radius:6px;background:var(--dsw-alias-markdown-inline-code);color:var(--dsw-alias-label-primary);font-family:var(--ds-font-family-code,monospace);font-size:12px}',
      '.dpm-copy{flex:none;padding:2px 8px;border:1px solid var(--dsw-alias-border-l2);border-radius:6px;background:transparent;color:var(--dsw-alias-label-secondary);font-size:12px;cursor:pointer}',
      '.dpm-copy:hover{color:var(--dsw-alias-label-primary)}',
      '.dpm-note{margin:6px 0;color:var(--dsw-alias-label-tertiary)}',
      '.dpm-chip{display:inline-flex;align-items:center;gap:5px;min-height:28px;padding:3px 6px;border:0;border-radius:6px;background:transparent;color:var(--dsw-alias-state-warn-label);font-size:12px;cursor:default}',
    ].join('')
    if (
      typeof document !== 'undefined' &&
      document.querySelector('style[data-plugin-css="dsh-project-mcp/panel.css"]') === null
    ) {
      const tag = document.createElement('style')
      tag.dataset.plugin = 'dsh-project-mcp'
      tag.dataset.pluginCss = 'dsh-project-mcp/panel.css'
      tag.textContent = css
      document.head.appendChild(tag)
    }

    const en = {
      'panel.trigger': 'MCP servers',
      'panel.title': 'Project MCP servers',
      'panel.aria': 'Project MCP servers',
      'panel.current': 'This session’s project',
      'panel.other': 'Other project',
      'panel.empty': 'No project is known to the host yet.',
      'panel.noServers': 'No MCP servers configured.',
      'panel.loading': 'Loading…',
      'panel.unreachable': 'The host’s status route cannot be reached.',
      'panel.agents': '{count} agent(s)',
      'panel.notRunning': '{count} not running',
      'row.tools': '{count} tools',
      'row.tokens': '{count} schema tokens',
      'panel.agentBudget': 'agent {n}: {offered} tools offered, {deferred} deferred (mcp_tool_search)',
      'row.lifecycle.eager': 'eager',
      'row.lifecycle.lazy': 'lazy',
      'row.cached': '{count} tools (cached)',
      'row.copy': 'Copy',
      'row.copied': 'Copied',
      'row.file': 'config file',
      'state.mounted': 'running',
      'state.starting': 'starting',
      'state.failed': 'failed',
      'state.untrusted': 'waiting for trust',
      'state.invalid': 'invalid',
      'state.disabled': 'disabled',
      'state.shadowed': 'shadowed',
      'state.idle': 'idle',
      'state.stopped': 'stopped',
      'state.dormant': 'dormant',
      'state.installing': 'installing',
      'state.skipped': 'skipped',
      'kind.untrusted': 'Not trusted yet: review it, then run',
      'kind.changed': 'Changed since trusted: review it, then run',
      'kind.needs-variable': 'A variable it needs is not set: set it, then restart the host',
      'kind.env-withheld':
        "A variable it needs is set only in the checkout's .env, which ${…} never reads: set it in the host's environment; see",
      'kind.store-problem': 'The trust store cannot be used (nothing counts as trusted): repair it; see',
      'kind.invalid': 'Its entry is not valid: see',
      'kind.failed': 'It failed to start: see',
      'kind.refused-file': 'This config file was refused: see',
      'kind.tools-changed':
        'Tools changed — review: tools it changed or added since trusted are withheld; review them, then run',
      'chip.count': '{count} MCP server(s) not running',
    }
    const zh = {
      'panel.trigger': 'MCP 服务器',
      'panel.title': '项目 MCP 服务器',
      'panel.aria': '项目 MCP 服务器',
      'panel.current': '当前会话的项目',
      'panel.other': '其他项目',
      'panel.empty': '主机尚未知道任何项目。',
      'panel.noServers': '未配置 MCP 服务器。',
      'panel.loading': '加载中…',
      'panel.unreachable': '无法连接主机的状态接口。',
      'panel.agents': '{count} 个智能体',
      'panel.notRunning': '{count} 个未运行',
      'row.tools': '{count} 个工具',
      'row.tokens': '{count} 个 schema token',
      'panel.agentBudget': '智能体 {n}：提供 {offered} 个工具，推迟 {deferred} 个（mcp_tool_search）',
      'row.lifecycle.eager': '随项目启动',
      'row.lifecycle.lazy': '首次调用时启动',
      'row.cached': '{count} 个工具（缓存）',
      'row.copy': '复制',
      'row.copied': '已复制',
      'row.file': '配置文件',
      'state.mounted': '运行中',
      'state.starting': '启动中',
      'state.failed': '失败',
      'state.untrusted': '等待信任',
      'state.invalid': '无效',
      'state.disabled': '已禁用',
      'state.shadowed': '被覆盖',
      'state.idle': '空闲',
      'state.stopped': '已停止',
      'state.dormant': '休眠',
      'state.installing': '安装中',
      'state.skipped': '已跳过',
      'kind.untrusted': '尚未信任：审阅后运行',
      'kind.changed': '信任后已更改：审阅后运行',
      'kind.needs-variable': '缺少所需的环境变量：设置后重启主机',
      'kind.env-withheld': '所需变量只在检出目录的 .env 中设置，${…} 不会读取它：请在主机自身的环境中设置；运行',
      'kind.store-problem': '信任存储无法使用（一切均不视为已信任）：请先修复；运行',
      'kind.invalid': '配置项无效：运行',
      'kind.failed': '启动失败：运行',
      'kind.refused-file': '此配置文件被拒绝：运行',
      'kind.tools-changed': '工具已更改——请审阅：信任后更改或新增的工具被暂扣；审阅后运行',
      'chip.count': '{count} 个 MCP 服务器未运行',
    }

    // One event stream per cwd, shared by every component showing it.
    const streams = new Map()
    function stream(cwd) {
      let s = streams.get(cwd)
      if (!s) {
        s = { view: undefined, failed: false, listeners: new Set(), source: undefined }
        const url = `/api/dsh-project-mcp/events${cwd ? `?cwd=${encodeURIComponent(cwd)}` : ''}`
        const entry = s
        entry.source = new EventSource(url)
        entry.source.onmessage = (event) => {
          try {
            entry.view = JSON.parse(event.data)
            entry.failed = false
          } catch {
            return
          }
          for (const l of entry.listeners) l()
        }
        entry.source.onerror = () => {
          entry.failed = entry.view === undefined
          for (const l of entry.listeners) l()
        }
        streams.set(cwd, s)
      }
      return s
    }
    function useView(cwd) {
      const key = cwd ?? ''
      const [, bump] = React.useState(0)
      React.useEffect(() => {
        const s = stream(key)
        const listener = () => bump((n) => n + 1)
        s.listeners.add(listener)
        listener()
        return () => {
          s.listeners.delete(listener)
          if (s.listeners.size === 0) {
            s.source?.close()
            streams.delete(key)
          }
        }
      }, [key])
      const s = streams.get(key)
      return { view: s?.view, failed: s?.failed === true }
    }
    function useCwd(useSessions, sessionId) {
      return useSessions((state) => {
        const id = sessionId ?? state.current
        if (id === undefined) return undefined
        return state.byId?.[id]?.cwd
      })
    }

    /** The host sends each row's tone (src/plan/states.ts STATE_TONE, the one mapping); 'idle' when absent. */
    const tone = (server) => server.tone ?? 'idle'
    const currentOf = (view) =>
      view && view.current !== null ? view.projects.find((p) => p.root === view.current) : undefined
    const problems = (project) => (project ? project.notRunning + project.files.length : 0)
    /** The session's project's count; with no session project, every known project's. */
    const panelCount = (view) =>
      view === undefined
        ? 0
        : view.current !== null
          ? problems(currentOf(view))
          : view.projects.reduce((n, p) => n + problems(p), 0)

    function CopyButton({ text, t }) {
      const [copied, setCopied] = React.useState(false)
      return h(
        'button',
        {
          type: 'button',
          className: 'dpm-copy',
          'data-project-mcp-copy': text,
          onClick: () => {
            const done = () => {
              setCopied(true)
              setTimeout(() => setCopied(false), 1500)
            }
            if (navigator.clipboard?.writeText) navigator.clipboard.writeText(text).then(done, done)
            else done()
          },
        },
        t(copied ? 'row.copied' : 'row.copy'),
      )
    }

    function Fix({ kind, fix, t }) {
      return h(
        'div',
        null,
        h('div', { className: 'dpm-why' }, t(`kind.${kind}`)),
        h(
          'div',
          { className: 'dpm-fix' },
          h('code', { 'data-project-mcp-fix': fix }, fix),
          h(CopyButton, { text: fix, t }),
        ),
      )
    }

    function ServerRow({ root, server, tokens, t }) {
      const meta = [
        t(`row.lifecycle.${server.lifecycle}`),
        server.state === 'mounted'
          ? t('row.tools', { count: server.toolCount })
          : server.state === 'dormant'
            ? t('row.cached', { count: server.toolCount })
            : null,
        server.signed ?? null,
        typeof tokens === 'number' ? t('row.tokens', { count: tokens }) : null,
      ]
        .filter(Boolean)
        .join(' · ')
      return h(
        'li',
        {
          className: 'dpm-row',
          'data-project-mcp-row': server.name,
          'data-root': root,
          'data-state': server.state,
          title: server.words ?? undefined,
        },
        h(
          'div',
          { className: 'dpm-head' },
          h('span', { className: 'dpm-dot', 'data-tone': tone(server) }),
          h('span', { className: 'dpm-name' }, server.name),
          h('span', { className: 'dpm-meta', 'data-project-mcp-state': server.state }, t(`state.${server.state}`)),
          h('span', { className: 'dpm-meta' }, meta),
        ),
        server.lastError ? h('div', { className: 'dpm-error' }, server.lastError) : null,
        server.kind && server.fix ? h(Fix, { kind: server.kind, fix: server.fix, t }) : null,
      )
    }

    function ProjectBlock({ project, current, t }) {
      return h(
        'section',
        { 'data-project-mcp-project': project.root },
        h(
          'h3',
          { className: 'dpm-project' },
          h('b', null, t(current ? 'panel.current' : 'panel.other')),
          ` · ${project.root}`,
          project.notRunning > 0 ? ` · ${t('panel.notRunning', { count: project.notRunning })}` : '',
        ),
        project.servers.length === 0 && project.files.length === 0
          ? h('p', { className: 'dpm-note' }, t('panel.noServers'))
          : null,
        (project.budget?.agents ?? []).map((a, i) =>
          h(
            'p',
            { key: `agent-${i}`, className: 'dpm-note', 'data-project-mcp-agent-budget': i + 1 },
            t('panel.agentBudget', { n: i + 1, offered: a.offered, deferred: a.deferred }),
          ),
        ),
        h(
          'ul',
          { className: 'dpm-rows' },
          project.servers.map((s) =>
            h(ServerRow, {
              key: s.name,
              root: project.root,
              server: s,
              tokens: project.budget?.servers.find((b) => b.name === s.name)?.tokens,
              t,
            }),
          ),
          project.files.map((f) =>
            h(
              'li',
              { key: f.file, className: 'dpm-row', 'data-project-mcp-file': f.file, title: f.words },
              h(
                'div',
                { className: 'dpm-head' },
                h('span', { className: 'dpm-dot', 'data-tone': 'error' }),
                h('span', { className: 'dpm-name' }, f.file),
                h('span', { className: 'dpm-meta' }, t('row.file')),
              ),
              h(Fix, { kind: 'refused-file', fix: f.fix, t }),
            ),
          ),
        ),
      )
    }

    function ServersPanel({ wide, useSessions, t }) {
      const cwd = useCwd(useSessions, undefined)
      const { view, failed } = useView(cwd)
      const [open, setOpen] = React.useState(false)
      const count = panelCount(view)
      const body = failed
        ? h('p', { className: 'dpm-note', role: 'alert' }, t('panel.unreachable'))
        : view === undefined
          ? h('p', { className: 'dpm-note' }, t('panel.loading'))
          : view.projects.length === 0
            ? h('p', { className: 'dpm-note' }, t('panel.empty'))
            : view.projects.map((p) =>
                h(ProjectBlock, { key: p.root, project: p, current: p.root === view.current, t }),
              )
      return h(
        'div',
        { className: 'dpm-foot' },
        open
          ? h(
              'section',
              { className: 'dpm-panel', 'data-project-mcp-panel': '', 'aria-label': t('panel.aria') },
              h('h2', { className: 'dpm-title' }, t('panel.title')),
              body,
            )
          : null,
        h(
          'button',
          {
            type: 'button',
            className: 'dpm-trigger',
            'data-project-mcp-trigger': count,
            'aria-expanded': open,
            'aria-label': t('panel.aria'),
            onClick: () => setOpen((v) => !v),
          },
          h('span', { className: 'dpm-dot', 'data-tone': count > 0 ? 'warn' : 'ok' }),
          wide === false ? null : h('span', null, t('panel.trigger')),
          count > 0 ? h('span', null, String(count)) : null,
        ),
      )
    }

    function ServersChip({ sessionId, useSessions, t }) {
      const cwd = useCwd(useSessions, sessionId)
      const { view } = useView(cwd)
      const project = currentOf(view)
      const count = problems(project)
      if (!project || count === 0) return null
      const which = [
        ...project.servers.filter((s) => s.kind !== null).map((s) => `${s.name}: ${s.words}`),
        ...project.files.map((f) => `${f.file}: ${f.words}`),
      ].join('\n')
      return h(
        'span',
        {
          className: 'dpm-chip',
          role: 'status',
          'data-project-mcp-chip': count,
          title: which,
          'aria-label': t('chip.count', { count }),
        },
        h('span', { className: 'dpm-dot', 'data-tone': 'warn' }),
        String(count),
      )
    }

    module.exports.inject = ['sessions', 'slots', 'locale']
    module.exports.apply = (ctx) => {
      ctx.effect(() => ctx.locale.register(NS, { zh, en }), 'project-mcp: dictionaries')
      ctx.slots.inject('sidebar.footer.action', () =>
        ctx.slots.register(
          { name: 'sidebar.footer.action', id: 'project-mcp-panel', order: 50, locale: NS },
          ServersPanel,
        ),
      )
      ctx.slots.inject('conversation.session.header.actions', () =>
        ctx.slots.register(
          { name: 'conversation.session.header.actions', id: 'project-mcp-chip', order: 30, locale: NS },
          ServersChip,
        ),
      )
    }
    return module.exports
  },
})
