/**
 * The panel's stylesheet: one `<style data-plugin-css="dsh-project-mcp/panel.css">`
 * tag in `document.head`.
 *
 * Contract: `injectStyles()` adds the tag once (a second call, or a second
 * load of the module, finds it and does nothing) and does nothing without a
 * `document`. Colours are the host's theme tokens (`--dsw-*`), so light and
 * dark both follow the theme.
 */
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

/** Add the stylesheet to the page unless it is there. */
export function injectStyles() {
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
}
