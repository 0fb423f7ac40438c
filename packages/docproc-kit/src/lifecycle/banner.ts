/**
 * The lines a server prints once it listens: `<what> listening on <url>`, then one aligned row per fact
 * (rows left undefined or empty are left out), ending with a newline.
 * @example process.stdout.write(banner('docproc mock listening on http://127.0.0.1:4011', [['API base URL', url + '/api/v1']]));
 */
export function banner(heading: string, rows: Array<[label: string, value: string] | undefined | false>): string {
  const shown = rows.filter((row): row is [string, string] => Boolean(row) && row !== undefined && row !== false && row[1] !== '');
  return [heading, ...shown.map(([label, value]) => `  ${label.padEnd(14)} ${value}`), ''].join('\n');
}
