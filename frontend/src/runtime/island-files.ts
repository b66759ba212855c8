// Each island's chunk, then every chunk it imports (React among them), as file names beside the
// runtime. The build replaces this module with the real lists (scripts/island-server.mjs), so the
// runtime can fetch an island's files side by side instead of one after another; in tests it knows
// none, and islands load through their import() alone.
export const islandFiles: Readonly<Record<string, readonly string[]>> = {};
