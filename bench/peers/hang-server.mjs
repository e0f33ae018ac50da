// Not an MCP server: reads stdin and never answers `initialize` (the peers bench's hanging server).
process.stdin.on('data', () => {})
process.stdin.on('error', () => {})
setInterval(() => {}, 60_000)
