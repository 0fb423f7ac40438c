/** Headers that describe one connection, not the message (RFC 9110 §7.6.1): a proxy never forwards them. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * `rawHeaders` (Node's flat name/value list, names as sent) without the hop-by-hop headers and those the
 * Connection header names, and without any name in `drop`: every other header passes as it came, in order.
 * @example endToEnd(req.rawHeaders, new Set(['host'])) // ['Content-Type', 'application/json', ...]
 */
export function endToEnd(rawHeaders: readonly string[], drop: ReadonlySet<string> = new Set()): string[] {
  const named = new Set<string>();
  for (let i = 0; i < rawHeaders.length; i += 2)
    if (rawHeaders[i]!.toLowerCase() === 'connection')
      for (const token of rawHeaders[i + 1]!.split(',')) named.add(token.trim().toLowerCase());
  const out: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    if (HOP_BY_HOP.has(name) || named.has(name) || drop.has(name)) continue;
    out.push(rawHeaders[i]!, rawHeaders[i + 1]!);
  }
  return out;
}
