/**
 * The context budget's default, in one place for the host's options (src/host/options.ts) and the CLI
 * (`dsh-mcp tokens`), which must not load the host's option schema.
 *
 * @module
 */

/**
 * The default `toolBudget`: 2,000 schema tokens. Measured over the recorded catalogs of eleven real MCP
 * servers (bench/catalogs, tokens as the host sends them): a server costs 38–3,750 tokens, median 770,
 * about 120 per tool. 2,000 keeps any one or two typical servers whole (filesystem's 14 tools: 1,700),
 * while the five-server project of issue 26 (memory, filesystem, everything over stdio and HTTP, one
 * more: 5,000+ tokens resent on every step) goes behind the search tool.
 */
export const DEFAULT_TOOL_BUDGET = 2000
